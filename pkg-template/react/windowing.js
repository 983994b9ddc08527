// Optional windowing of the long lists (process timeline, message parts, execution events): only
// the items in and near the scrolled viewport are rendered, between two spacers that keep the
// scroll height. Off unless a view gets a `windowing` prop; without it the list renders every item
// and its DOM is exactly the view package's.
//
// `windowing` = {itemHeight, height, overscan?, stickToEnd?}:
// - itemHeight: the estimated height of one item, in CSS pixels (items of a fixed height keep the
//   scroll position exact);
// - height: the list's maximal height in pixels (it scrolls beyond);
// - overscan: items rendered above and below the viewport (default 8);
// - stickToEnd: start at the end and follow new items while scrolled to the end (default true), as
//   a live timeline does.
import { createElement as h, useCallback, useLayoutEffect, useRef, useState } from "react";
import { chunkedItems } from "./list.js";

const DEFAULT_OVERSCAN = 8;
// useLayoutEffect warns during server rendering; nothing there to measure or scroll anyway.
const useClientLayoutEffect = typeof document === "undefined" ? () => {} : useLayoutEffect;

function checkWindowing(windowing) {
  const { itemHeight, height, overscan = DEFAULT_OVERSCAN } = windowing;
  if (!(itemHeight > 0) || !(height > 0) || !(overscan >= 0)) {
    throw new RangeError(
      `windowing: itemHeight and height must be positive numbers and overscan a non-negative number, got ${JSON.stringify(windowing)}`,
    );
  }
  return { itemHeight, height, overscan: Math.floor(overscan), stickToEnd: windowing.stickToEnd !== false };
}

/**
 * The window of a list of `count` items: `{start, end}` (the slice to render), props for the
 * scrolling element, and the spacer heights in pixels.
 */
function useListWindow(count, options) {
  const [scrollTop, setScrollTop] = useState(0);
  const element = useRef(null);
  // Whether the viewport was at the end of the list when last scrolled (or never scrolled).
  const atEnd = useRef(true);
  const onScroll = useCallback((event) => {
    const target = event.currentTarget;
    const top = target.scrollTop;
    atEnd.current = top + target.clientHeight >= target.scrollHeight - 1;
    setScrollTop(top);
  }, []);

  const { itemHeight, height, overscan, stickToEnd } = options;
  const total = count * itemHeight;
  const following = stickToEnd && atEnd.current;
  useClientLayoutEffect(() => {
    const target = element.current;
    if (following && target !== null && target.scrollTop !== target.scrollHeight) target.scrollTop = target.scrollHeight;
  });

  const top = following ? Math.max(0, total - height) : Math.min(scrollTop, Math.max(0, total - height));
  const start = Math.max(0, Math.floor(top / itemHeight) - overscan);
  const end = Math.min(count, Math.ceil((top + height) / itemHeight) + overscan);
  return {
    start,
    end,
    listProps: {
      ref: element,
      onScroll,
      style: { maxHeight: `${height}px`, overflowY: "auto" },
      "data-window-start": start,
      "data-window-end": end,
      "data-window-count": count,
    },
    before: start * itemHeight,
    after: (count - end) * itemHeight,
  };
}

/** A spacer of `height` pixels standing for the items outside the window. */
function spacer(tag, key, height) {
  if (height <= 0) return null;
  return h(tag, { key, "aria-hidden": "true", "data-window-spacer": key, style: { height: `${height}px` } });
}

function WindowedList({ tag, attributes, items, renderItem, windowing, spacerTag }) {
  const win = useListWindow(items.length, checkWindowing(windowing));
  return h(
    tag,
    { ...attributes, ...win.listProps },
    spacer(spacerTag, "window-before", win.before),
    chunkedItems(items, renderItem, win.start, win.end),
    spacer(spacerTag, "window-after", win.after),
  );
}

/**
 * The list element `tag` with `attributes`, holding `renderItem(item)` for its items: every item,
 * or with `windowing` only those near the viewport, between spacers (`spacerTag` elements).
 */
export function listElement(tag, attributes, items, renderItem, windowing, spacerTag) {
  if (!windowing) return h(tag, attributes, chunkedItems(items, renderItem));
  return h(WindowedList, { tag, attributes, items, renderItem, windowing, spacerTag });
}
