/**
 * Removes `schema` and `$schema` keys at any depth before tool arguments or results are persisted:
 * tools sometimes echo whole JSON Schemas, which bloat the transcript and every later request while
 * carrying nothing the conversation needs. Returns a copy; the input is not modified. Non-plain
 * objects (Dates, Buffers, class instances) are kept as they are.
 */
export function stripSchemaFields<T>(value: T): T {
  return stripValue(value, new WeakMap()) as T;
}

const STRIPPED_KEYS = new Set(["schema", "$schema"]);

function stripValue(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (value === null || typeof value !== "object") return value;
  const already = seen.get(value);
  if (already !== undefined) return already; // a cycle: reuse the copy being built

  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(stripValue(item, seen));
    return copy;
  }
  if (!isPlainObject(value)) return value;

  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    if (STRIPPED_KEYS.has(key)) continue;
    copy[key] = stripValue(item, seen);
  }
  return copy;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
