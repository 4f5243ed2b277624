import { Kind, type TSchema } from "@sinclair/typebox";
import { Errors, ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import type { ConfigIssue } from "./errors.js";
import { formatKeyPath, isPlainObject, type KeyPathSegment } from "./key-path.js";

type SchemaNode = TSchema & {
  anyOf?: TSchema[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  pattern?: string;
  expected?: string;
};

const kindOf = (schema: TSchema): string => (schema as { [Kind]?: string })[Kind] ?? "";

function describeBounds(node: SchemaNode): string {
  const { minimum: min, maximum: max, exclusiveMinimum: gt, exclusiveMaximum: lt } = node;
  if (min !== undefined && max !== undefined) return ` ${min}-${max}`;
  const parts: string[] = [];
  if (min !== undefined) parts.push(`>= ${min}`);
  if (gt !== undefined) parts.push(`> ${gt}`);
  if (max !== undefined) parts.push(`<= ${max}`);
  if (lt !== undefined) parts.push(`< ${lt}`);
  return parts.length ? ` ${parts.join(" and ")}` : "";
}

/** What a value for `schema` must look like, phrased for "expected …". */
export function describeSchema(schema: TSchema): string {
  const node = schema as SchemaNode;
  if (node.expected) return node.expected;
  switch (kindOf(schema)) {
    case "Integer":
      return `integer${describeBounds(node)}`;
    case "Number":
      return `number${describeBounds(node)}`;
    case "String":
      if (node.pattern) return `string matching /${node.pattern}/`;
      return node.minLength ? "non-empty string" : "string";
    case "Boolean":
      return "boolean";
    case "Array":
      return "array";
    case "Object":
    case "Record":
      return "object";
    case "Literal":
      return JSON.stringify(node.const);
    case "Union": {
      const variants = node.anyOf ?? [];
      if (variants.length > 0 && variants.every((v) => kindOf(v) === "Literal")) {
        return `one of ${variants.map((v) => JSON.stringify((v as SchemaNode).const)).join(", ")}`;
      }
      return [...new Set(variants.map(describeSchema))].join(" or ");
    }
    default:
      return "a valid value";
  }
}

/** Turns a JSON pointer from typebox into key path segments, using the data to tell indexes from keys. */
function pointerToSegments(pointer: string, root: unknown): KeyPathSegment[] {
  const segments: KeyPathSegment[] = [];
  let current: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      segments.push(Number(key));
      current = current[Number(key)];
    } else {
      segments.push(key);
      current = isPlainObject(current) ? current[key] : undefined;
    }
  }
  return segments;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value;
}

/**
 * A union like "string or {primary, fallbacks}" fails as a whole; when the value clearly
 * aimed at one variant (same JSON type), report that variant's own errors instead.
 */
function variantMatchingType(schema: TSchema, value: unknown): TSchema | undefined {
  const variants = (schema as SchemaNode).anyOf ?? [];
  const sameType = variants.filter((variant) => {
    const kind = kindOf(variant);
    if (kind === "Object" || kind === "Record") return jsonType(value) === "object";
    if (kind === "Array") return jsonType(value) === "array";
    return false;
  });
  return sameType.length === 1 ? sameType[0] : undefined;
}

function collect(schema: TSchema, value: unknown, prefix: KeyPathSegment[], out: Map<string, string>): void {
  for (const error of Errors(schema, value) as Iterable<ValueError>) {
    const segments = [...prefix, ...pointerToSegments(error.path, value)];
    if (error.type === ValueErrorType.Union) {
      const variant = variantMatchingType(error.schema, error.value);
      if (variant) {
        collect(variant, error.value, segments, out);
        continue;
      }
    }
    const key = formatKeyPath(segments);
    // An intersection (a channel account) also reports itself as a whole once a member key failed: that key says it.
    if (error.type === ValueErrorType.Intersect && [...out.keys()].some((found) => found.startsWith(`${key}.`) || found.startsWith(`${key}[`))) continue;
    const reason = error.type === ValueErrorType.ObjectRequiredProperty ? "required" : `expected ${describeSchema(error.schema)}`;
    // typebox reports a missing required key twice (missing, then wrong type): keep "required".
    if (!out.has(key) || reason === "required") out.set(key, reason);
  }
}

/** Every schema violation in `value`, one issue per key path, in document order. */
export function collectSchemaIssues(schema: TSchema, value: unknown): ConfigIssue[] {
  const found = new Map<string, string>();
  collect(schema, value, [], found);
  return [...found].map(([path, message]) => ({ path, message }));
}
