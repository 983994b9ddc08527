// The items of a list, rendered in chunks of consecutive items. A chunk is a memoized component
// that renders again only when one of its items is a new object, so a state that changes one item
// of a long list costs React one chunk of item comparisons instead of one per item. Chunks render
// no element of their own: the DOM is the items' alone.
import { createElement as h, memo } from "react";

/** Items per chunk. Chunks start at multiples of it, so an appended item leaves earlier chunks as they are. */
export const CHUNK_SIZE = 64;

function sameChunk(before, after) {
  if (before.renderItem !== after.renderItem || before.start !== after.start || before.end !== after.end) return false;
  if (before.items === after.items) return true;
  for (let i = after.start; i < after.end; i++) {
    if (before.items[i] !== after.items[i]) return false;
  }
  return true;
}

const Chunk = memo(function Chunk({ items, start, end, renderItem }) {
  const out = new Array(end - start);
  for (let i = start; i < end; i++) out[i - start] = renderItem(items[i]);
  return out;
}, sameChunk);

/**
 * `renderItem(item)` (a keyed element, the same function while the list's label props are the
 * same) for the items `[start, end)`, grouped in chunks.
 */
export function chunkedItems(items, renderItem, start = 0, end = items.length) {
  const chunks = [];
  for (let first = start - (start % CHUNK_SIZE); first < end; first += CHUNK_SIZE) {
    chunks.push(
      h(Chunk, { key: first, items, start: Math.max(first, start), end: Math.min(first + CHUNK_SIZE, end), renderItem }),
    );
  }
  return chunks;
}
