import { Kind, type TSchema } from "@sinclair/typebox";
import { formatKeyPath, isPlainObject, setOwnProperty, type KeyPathSegment } from "./key-path.js";

type SchemaNode = TSchema & {
  properties?: Record<string, TSchema>;
  required?: string[];
  patternProperties?: Record<string, TSchema>;
  items?: TSchema;
  anyOf?: TSchema[];
};

const kindOf = (schema: TSchema): string => (schema as { [Kind]?: string })[Kind] ?? "";

function isObjectSchema(schema: TSchema): boolean {
  return kindOf(schema) === "Object" || kindOf(schema) === "Record";
}

/**
 * Returns a copy of `value` holding only keys the schema knows, adding a warning for each
 * key it drops. Also reads an empty YAML value (`key:` → null) as "not set", since that is
 * what commenting out every child of a section produces. Values of the wrong type are
 * kept as they are: reporting them is the validator's job.
 */
export function stripUnknownKeys(
  schema: TSchema,
  value: unknown,
  warnings: string[],
  path: KeyPathSegment[] = [],
): unknown {
  const node = schema as SchemaNode;
  switch (kindOf(schema)) {
    case "Object":
      return isPlainObject(value) ? stripObject(node, value, warnings, path) : value;
    case "Record":
      return isPlainObject(value) ? stripRecord(node, value, warnings, path) : value;
    case "Array":
      if (!Array.isArray(value) || !node.items) return value;
      return value.map((item, index) => stripUnknownKeys(node.items!, item, warnings, [...path, index]));
    case "Union": {
      // For "string or object" unions, an object value is walked with the object variant.
      const objectVariants = (node.anyOf ?? []).filter(isObjectSchema);
      if (isPlainObject(value) && objectVariants.length === 1) {
        return stripUnknownKeys(objectVariants[0]!, value, warnings, path);
      }
      return value;
    }
    default:
      return value;
  }
}

function stripObject(
  node: SchemaNode,
  value: Record<string, unknown>,
  warnings: string[],
  path: KeyPathSegment[],
): Record<string, unknown> {
  const properties = node.properties ?? {};
  const required = new Set(node.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (!childSchema) {
      const suggestion = closestKey(key, Object.keys(properties));
      const hint = suggestion ? `; did you mean "${formatKeyPath([...path, suggestion])}"?` : "";
      warnings.push(`${UNKNOWN_KEY_PREFIX}"${formatKeyPath([...path, key])}" (ignored${hint})`);
      continue;
    }
    if (child === null && !required.has(key)) continue;
    setOwnProperty(out, key, stripUnknownKeys(childSchema, child, warnings, [...path, key]));
  }
  return out;
}

function stripRecord(
  node: SchemaNode,
  value: Record<string, unknown>,
  warnings: string[],
  path: KeyPathSegment[],
): Record<string, unknown> {
  const valueSchema = Object.values(node.patternProperties ?? {})[0];
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!valueSchema) {
      setOwnProperty(out, key, child);
      continue;
    }
    // `agents.entries: { main: }` in YAML means "agent main, no settings".
    const filled = child === null && isObjectSchema(valueSchema) ? {} : child;
    setOwnProperty(out, key, stripUnknownKeys(valueSchema, filled, warnings, [...path, key]));
  }
  return out;
}

/** How every unknown-key warning begins, so `config validate --strict` can tell them apart. */
export const UNKNOWN_KEY_PREFIX = "unknown config key ";

/**
 * The known key nearest to a typo, by edit distance (case-insensitive): at most 1 edit for
 * short keys, 2 from 5 characters, 3 from 10, so a suggestion is a likely typo, not a guess.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const limit = key.length >= 10 ? 3 : key.length >= 5 ? 2 : 1;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
