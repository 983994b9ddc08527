// Turning pasted or dropped text into a list of runtime events.

/**
 * Parses text as one JSON value (an array of events, `{executionEvents: [...]}`, `{events: [...]}`
 * or a single event) or, failing that, as NDJSON (one JSON value per non-empty line).
 * Returns `{items, errors}`; `errors` lists lines that are not JSON.
 */
export function parseEventText(text) {
  const trimmed = text.trim();
  if (trimmed === "") return { items: [], errors: [] };
  try {
    const v = JSON.parse(trimmed);
    return { items: unwrap(v), errors: [] };
  } catch {
    // fall through to NDJSON
  }
  const items = [];
  const errors = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    try {
      items.push(JSON.parse(line));
    } catch (e) {
      errors.push({ line: i + 1, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return { items, errors };
}

function unwrap(v) {
  if (Array.isArray(v)) return v;
  if (v && typeof v === "object") {
    if (Array.isArray(v.executionEvents)) return v.executionEvents;
    if (Array.isArray(v.events)) return v.events;
  }
  return [v];
}

/**
 * True for the canonical envelope shape `{eventId, type, timestamp, sessionId, ...}`: an object
 * with `eventId` and no `id` (the same rule as the package's `normalizeRuntimeEvent`).
 */
export function isEnvelope(item) {
  return item !== null && typeof item === "object" && !Array.isArray(item) && !("id" in item) && "eventId" in item;
}

/**
 * Converts items to execution events: envelopes go through the package's
 * `normalizeRuntimeEvent`; execution events are kept as they are. Returns
 * `{events, notes}`; `notes[i]` says how item i was read (or why it could not be).
 */
export function toExecutionEvents(items, normalize) {
  const events = [];
  const notes = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (isEnvelope(item) && typeof normalize === "function") {
      try {
        const ev = normalize(item);
        events.push(ev);
        notes.push({ index: i, kind: "envelope" });
      } catch (e) {
        events.push(item);
        notes.push({ index: i, kind: "envelope-error", message: e instanceof Error ? e.message : String(e) });
      }
    } else {
      events.push(item);
      notes.push({ index: i, kind: "event" });
    }
  }
  return { events, notes };
}
