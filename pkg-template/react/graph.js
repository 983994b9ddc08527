// `ExecutionGraphView`: the state's execution graph nodes, one memoized card per node.
import { createElement as h, memo, useCallback } from "react";
import { chunkedItems } from "./list.js";
import { exportView } from "./view.js";
import * as defaults from "./labels.js";

const GraphNode = memo(function GraphNode({ node, nodeTitle, nodeMeta }) {
  return h(
    "article",
    {
      className: `agent-execution-node ${node.status}`,
      "data-node-type": node.nodeType,
      "data-node-status": node.status,
      "data-parent-id": node.parentId,
    },
    h("span", { "aria-hidden": "true" }),
    h(
      "div",
      null,
      h("small", null, nodeMeta(node)),
      h("strong", null, nodeTitle(node)),
      node.refs.length ? h("p", null, node.refs.join(" / ")) : null,
    ),
  );
});

/** The execution graph (`state.graph`) as a flat list of node cards. */
export const MemoExecutionGraphView = memo(function ExecutionGraphView({
  nodes = [],
  empty,
  ariaLabel = "Execution graph",
  nodeTitle = defaults.graphNodeTitle,
  nodeMeta = defaults.graphNodeMeta,
}) {
  const render = useCallback((node) => h(GraphNode, { key: node.nodeId, node, nodeTitle, nodeMeta }), [nodeTitle, nodeMeta]);
  if (!nodes.length) return empty === undefined ? null : h("div", { className: "agent-execution-graph-empty" }, empty);
  return h("div", { className: "agent-execution-graph", "aria-label": ariaLabel }, chunkedItems(nodes, render));
});

export const ExecutionGraphView = exportView(MemoExecutionGraphView);
