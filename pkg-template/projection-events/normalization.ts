// Reading loosely typed records with JS semantics: the helpers every builder uses to turn a
// provider's metadata into trimmed strings, id lists, numbers and flags.

const PREVIEW_LIMIT = 240;

type Loose = Record<string, unknown>;

/** `value` trimmed, or `undefined` when nothing is left. */
export function definedString(value: string | null | undefined): string | undefined {
  // `?.` keeps the JS error a non-string gets ("value?.trim is not a function").
  const text = value?.trim();
  return text ? text : undefined;
}

/** `value` trimmed; when longer than `limit` UTF-16 units, its first `limit` units, trimmed, and "...". */
export function truncateText(value: string | null | undefined, limit = PREVIEW_LIMIT): string | undefined {
  const text = definedString(value);
  if (text === undefined) return undefined;
  return text.length <= limit ? text : `${text.slice(0, limit).trim()}...`;
}

/**
 * A list as the reference reads one it maps (`(values ?? []).map(...)`): an array as it is,
 * `null` and `undefined` as none, anything else through its own `map` (V8's own TypeError where
 * it has none: a string, a number, a Set).
 */
function mappedList<T>(values: unknown): readonly T[] {
  if (Array.isArray(values)) return values;
  return ((values ?? []) as T[]).map((value) => value);
}

/** Each value through `truncateText`, empty ones dropped, first occurrences kept; `undefined` when none is left. */
export function truncateStringList(values: string[] | undefined, limit = PREVIEW_LIMIT): string[] | undefined {
  const kept = new Set<string>();
  for (const value of mappedList<string>(values)) {
    const text = truncateText(value, limit);
    if (text) kept.add(text);
  }
  return kept.size === 0 ? undefined : [...kept];
}

/** The own enumerable keys of a record, sorted; `[]` for anything else. */
export function metadataKeys(value: unknown): string[] {
  const record = readRecord(value);
  return record ? Object.keys(record).sort() : [];
}

/** A non-blank string as a one-item list (trimmed), or an array's non-blank strings (as they are). */
export function readStringArray(value: unknown): string[] {
  if (typeof value === "string") {
    const text = value.trim();
    return text ? [text] : [];
  }
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === "string" && item.trim().length > 0) out.push(item);
  }
  return out;
}

/** `value` when it is a non-array object. */
export function readRecord(value: unknown): Loose | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
}

/** The first of `keys` holding a string with content, trimmed. */
export function readStringField(record: Loose | undefined, keys: string[]): string | undefined {
  if (!record) return undefined;
  for (const key of keys) {
    const value = record[key];
    if (typeof value !== "string") continue;
    const text = definedString(value);
    if (text) return text;
  }
  return undefined;
}

/** The first of `keys` whose `readStringArray` is not empty. */
export function readStringArrayField(record: Loose | undefined, keys: string[]): string[] {
  if (!record) return [];
  for (const key of keys) {
    const values = readStringArray(record[key]);
    if (values.length > 0) return values;
  }
  return [];
}

/** The first of `keys` holding a boolean. */
export function readBooleanField(record: Loose | undefined, keys: string[]): boolean | undefined {
  if (!record) return undefined;
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "boolean") return value;
  }
  return undefined;
}

/** The first of `keys` holding a finite number, or a non-blank string `Number()` reads as one. */
export function readNumberField(record: Loose | undefined, keys: string[]): number | undefined {
  if (!record) return undefined;
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "number") {
      if (Number.isFinite(value)) return value;
    } else if (typeof value === "string" && value.trim()) {
      const parsed = Number(value);
      if (Number.isFinite(parsed)) return parsed;
    }
  }
  return undefined;
}

/** Ids trimmed, empty ones dropped, first occurrences kept. */
export function normalizeProjectionIdList(values: Array<string | null | undefined> | undefined): string[] {
  const kept = new Set<string>();
  for (const value of mappedList<string | null | undefined>(values)) {
    const id = value?.trim() ?? "";
    if (id) kept.add(id);
  }
  return [...kept];
}

/** A copy of `value` without its own keys that hold `undefined`. */
export function compactProjectionFields<T extends object>(value: T): T {
  const out: Loose = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined) out[key] = entry;
  }
  return out as T;
}
