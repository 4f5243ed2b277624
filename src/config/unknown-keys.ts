import { Kind, Type, type TSchema } from "@sinclair/typebox";
import { closestName } from "../infra/closest-name.js";
import { formatKeyPath, isPlainObject, setOwnProperty, type KeyPathSegment } from "./key-path.js";

type SchemaNode = TSchema & {
  properties?: Record<string, TSchema>;
  required?: string[];
  patternProperties?: Record<string, TSchema>;
  items?: TSchema;
  anyOf?: TSchema[];
  allOf?: TSchema[];
};

/** What the key walk needs of an object schema. */
type ObjectShape = Pick<SchemaNode, "properties" | "required">;

const kindOf = (schema: TSchema): string => (schema as { [Kind]?: string })[Kind] ?? "";

function isObjectSchema(schema: TSchema): boolean {
  return ["Object", "Record", "Intersect"].includes(kindOf(schema));
}

/** A key the schema does not know: its path, and the known key it is closest to (a likely typo). */
export interface UnknownKey {
  path: string;
  suggestion?: string;
}

type OnUnknown = (key: UnknownKey) => void;

/**
 * Returns a copy of `value` holding only keys the schema knows, adding a warning for each
 * key it drops. Also reads an empty YAML value (`key:` → null) as "not set", since that is
 * what commenting out every child of a section produces. Values of the wrong type are
 * kept as they are: reporting them is the validator's job.
 */
export function stripUnknownKeys(schema: TSchema, value: unknown, warnings: string[]): unknown {
  return strip(schema, value, [], ({ path, suggestion }) => {
    const hint = suggestion ? `; did you mean "${suggestion}"?` : "";
    warnings.push(`${UNKNOWN_KEY_PREFIX}"${path}" (ignored${hint})`);
  });
}

/** Every key in `value` the schema does not know, in document order. */
export function findUnknownKeys(schema: TSchema, value: unknown): UnknownKey[] {
  const found: UnknownKey[] = [];
  strip(schema, value, [], (key) => found.push(key));
  return found;
}

function strip(schema: TSchema, value: unknown, path: KeyPathSegment[], onUnknown: OnUnknown): unknown {
  const node = schema as SchemaNode;
  switch (kindOf(schema)) {
    case "Object":
      return isPlainObject(value) ? stripObject(node, value, path, onUnknown) : value;
    case "Record":
      return isPlainObject(value) ? stripRecord(node, value, path, onUnknown) : value;
    case "Array":
      if (!Array.isArray(value) || !node.items) return value;
      return value.map((item, index) => strip(node.items!, item, [...path, index], onUnknown));
    case "Union": {
      // For "string or object" unions, an object value is walked with the object variant.
      const objectVariants = (node.anyOf ?? []).filter(isObjectSchema);
      if (isPlainObject(value) && objectVariants.length === 1) {
        return strip(objectVariants[0]!, value, path, onUnknown);
      }
      return value;
    }
    case "Intersect": {
      const merged = mergeObjectSchemas(node.allOf ?? []);
      return merged && isPlainObject(value) ? stripObject(merged, value, path, onUnknown) : value;
    }
    default:
      return value;
  }
}

/**
 * An intersection of object schemas, seen as the one object it describes: every member's keys,
 * every member's required keys, and a key two members both define must satisfy both.
 * Undefined when a member is not an object (its keys cannot be listed), so the value is kept.
 */
function mergeObjectSchemas(members: TSchema[]): ObjectShape | undefined {
  const properties: Record<string, TSchema> = {};
  const required: string[] = [];
  for (const member of members) {
    const kind = kindOf(member);
    const node = kind === "Intersect" ? mergeObjectSchemas((member as SchemaNode).allOf ?? []) : kind === "Object" ? (member as SchemaNode) : undefined;
    if (!node) return undefined;
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const earlier = Object.hasOwn(properties, key) ? properties[key] : undefined;
      setOwnProperty(properties, key, earlier ? Type.Intersect([earlier, child]) : child);
    }
    required.push(...(node.required ?? []));
  }
  return { properties, required };
}

function stripObject(node: ObjectShape, value: Record<string, unknown>, path: KeyPathSegment[], onUnknown: OnUnknown): Record<string, unknown> {
  const properties = node.properties ?? {};
  const required = new Set(node.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (!childSchema) {
      const suggestion = closestName(key, Object.keys(properties));
      onUnknown({ path: formatKeyPath([...path, key]), suggestion: suggestion ? formatKeyPath([...path, suggestion]) : undefined });
      continue;
    }
    if (child === null && !required.has(key)) continue;
    setOwnProperty(out, key, strip(childSchema, child, [...path, key], onUnknown));
  }
  return out;
}

function stripRecord(node: SchemaNode, value: Record<string, unknown>, path: KeyPathSegment[], onUnknown: OnUnknown): Record<string, unknown> {
  const valueSchema = Object.values(node.patternProperties ?? {})[0];
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!valueSchema) {
      setOwnProperty(out, key, child);
      continue;
    }
    // `agents.entries: { main: }` in YAML means "agent main, no settings".
    const filled = child === null && isObjectSchema(valueSchema) ? {} : child;
    setOwnProperty(out, key, strip(valueSchema, filled, [...path, key], onUnknown));
  }
  return out;
}

/** How every unknown-key warning begins, so `config validate --strict` can tell them apart. */
export const UNKNOWN_KEY_PREFIX = "unknown config key ";
