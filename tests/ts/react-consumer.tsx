// A typed React consumer of the react subpath (checked with tsc --strict, not run).
import { useCallback, useEffect } from "react";
import {
  AgentUiProjectionView,
  ProcessTimelineView,
  useAgentUiProjection,
} from "@limecloud/agent-runtime-projection-wasm/react";
import type { AgentRuntimeExecutionEvent } from "@limecloud/agent-runtime-projection-wasm";

export function Session({ socket }: { socket: WebSocket }) {
  const { state, apply, applyMany, reset, flush } = useAgentUiProjection({ redactSecrets: true });
  useEffect(() => {
    const onMessage = (msg: MessageEvent<string>) => apply(JSON.parse(msg.data) as AgentRuntimeExecutionEvent);
    socket.addEventListener("message", onMessage);
    return () => socket.removeEventListener("message", onMessage);
  }, [socket, apply]);
  const resolve = useCallback(
    (event: AgentRuntimeExecutionEvent) => socket.send(JSON.stringify({ eventId: event.id })),
    [socket],
  );
  const more = (events: AgentRuntimeExecutionEvent[]) => {
    applyMany(events);
    flush();
  };
  void more;
  void reset;
  return (
    <main>
      <AgentUiProjectionView state={state} onResolveAction={resolve} />
      <ProcessTimelineView entries={state.timeline} windowing={{ itemHeight: 24, height: 480 }} />
    </main>
  );
}
