import type { ModelApi } from "./types.js";

/**
 * Tool parameter schemas are written once (typebox) but every provider accepts a different
 * slice of JSON Schema; an unsupported keyword fails the whole request. This rewrites a
 * schema into the slice the target accepts. It is idempotent, so normalizing twice is safe.
 */

interface SchemaRules {
  /** Keywords removed wherever they appear as keywords (never as property names). */
  drop: ReadonlySet<string>;
  /** `format` is kept only on string schemas (some providers reject it elsewhere). */
  formatOnlyOnStrings: boolean;
  /** `const: x` → `enum: [x]` for providers that do not know `const`. */
  constToEnum: boolean;
  /** `type: ["string", "null"]` → `type: "string"` for providers that want a single type. */
  singleType: boolean;
}

// Meta keywords carry no meaning for a model and several providers reject them.
const ALWAYS_DROP = ["$schema", "$id", "$comment"];

const ANTHROPIC: SchemaRules = { drop: new Set(ALWAYS_DROP), formatOnlyOnStrings: false, constToEnum: false, singleType: false };

const OPENAI_COMPAT: SchemaRules = {
  drop: new Set([...ALWAYS_DROP, "patternProperties", "examples"]),
  formatOnlyOnStrings: true,
  constToEnum: true,
  singleType: false,
};

// Gemini's OpenAPI-subset validator (also behind OpenAI-compatible gateways) is the strictest.
const GEMINI_LIKE: SchemaRules = {
  drop: new Set([...OPENAI_COMPAT.drop, "default", "additionalProperties", "minProperties", "maxProperties"]),
  formatOnlyOnStrings: true,
  constToEnum: true,
  singleType: true,
};

function rulesFor(api: ModelApi, provider: string): SchemaRules {
  if (/gemini|google|vertex/i.test(provider)) return GEMINI_LIKE;
  return api === "anthropic-messages" ? ANTHROPIC : OPENAI_COMPAT;
}

const SCHEMA_MAP_KEYS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const SCHEMA_LIST_KEYS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const SCHEMA_VALUE_KEYS = new Set(["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"]);

type Json = Record<string, unknown>;

/**
 * Normalized schemas by source schema object, per api and provider. Tool schemas are module
 * constants, so this turns a per-request deep copy and rewrite into a lookup; a normalized result
 * is registered too, so normalizing it again (a provider given ready specs) is free. Results are
 * shared: callers must treat them as read-only.
 */
const normalizedMemo = new WeakMap<object, Map<string, Json>>();

/** A provider-ready tool parameter schema: always an object schema with `properties`. */
export function normalizeToolSchema(schema: unknown, api: ModelApi, provider: string): Json {
  const key = `${api}\0${provider}`;
  const cacheable = typeof schema === "object" && schema !== null;
  const hit = cacheable ? normalizedMemo.get(schema)?.get(key) : undefined;
  if (hit) return hit;
  const result = computeToolSchema(schema, api, provider);
  if (cacheable) {
    remember(schema, key, result);
    remember(result, key, result);
  }
  return result;
}

function remember(schema: object, key: string, result: Json): void {
  let byTarget = normalizedMemo.get(schema);
  if (!byTarget) {
    byTarget = new Map();
    normalizedMemo.set(schema, byTarget);
  }
  byTarget.set(key, result);
}

function computeToolSchema(schema: unknown, api: ModelApi, provider: string): Json {
  const rules = rulesFor(api, provider);
  const root = normalizeNode(toPlainJson(schema), rules);
  if (!isObject(root)) return { type: "object", properties: {} };
  if (root.type !== "object") {
    // A provider needs an object at the root; anything else cannot be called with named args.
    return { type: "object", properties: {}, ...(typeof root.description === "string" ? { description: root.description } : {}) };
  }
  return root;
}

// A JSON round trip drops typebox's symbol keys ([Kind], [OptionalKind]) and undefined values,
// and gives us a private copy to rewrite.
function toPlainJson(schema: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(schema ?? {}));
  } catch {
    return {};
  }
}

function normalizeNode(node: unknown, rules: SchemaRules): unknown {
  if (!isObject(node)) return node;
  const flattened = flattenLiteralUnion(node);
  const out: Json = {};
  for (const [key, value] of Object.entries(flattened)) {
    if (rules.drop.has(key)) continue;
    if (SCHEMA_MAP_KEYS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, normalizeNode(sub, rules)]));
    } else if (SCHEMA_LIST_KEYS.has(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => normalizeNode(sub, rules));
    } else if (SCHEMA_VALUE_KEYS.has(key)) {
      out[key] = Array.isArray(value) ? value.map((sub) => normalizeNode(sub, rules)) : normalizeNode(value, rules);
    } else {
      out[key] = value;
    }
  }
  applyTypeRules(out, rules);
  return out;
}

function applyTypeRules(schema: Json, rules: SchemaRules): void {
  if (rules.singleType && Array.isArray(schema.type)) {
    const nonNull = schema.type.filter((t) => t !== "null");
    schema.type = nonNull[0] ?? "null";
  }
  if (rules.constToEnum && "const" in schema) {
    if (!("enum" in schema)) schema.enum = [schema.const];
    delete schema.const;
  }
  if (rules.formatOnlyOnStrings && "format" in schema && schema.type !== "string") delete schema.format;
  // Every object schema names its type and has properties, even when empty: several providers
  // reject `{ type: "object" }` alone, and some reject `{ properties }` without a type.
  const looksLikeObject = schema.type === "object" || (schema.type === undefined && isObject(schema.properties));
  if (looksLikeObject) {
    schema.type = "object";
    if (!isObject(schema.properties)) schema.properties = {};
  }
}

/**
 * `anyOf`/`oneOf` whose members are all string literals (typebox `Union([Literal…])`,
 * `Type.Enum`) → one `{ type: "string", enum }`. Providers handle enums far better than
 * unions, and Gemini-style validators reject unions of consts outright.
 */
function flattenLiteralUnion(node: Json): Json {
  const key = Array.isArray(node.anyOf) ? "anyOf" : Array.isArray(node.oneOf) ? "oneOf" : undefined;
  if (!key) return node;
  const members = node[key] as unknown[];
  const literals: string[] = [];
  for (const member of members) {
    const values = literalStrings(member);
    if (!values) return node;
    literals.push(...values);
  }
  if (literals.length === 0) return node;
  const { [key]: _removed, ...rest } = node;
  return { ...rest, type: "string", enum: [...new Set(literals)] };
}

function literalStrings(member: unknown): string[] | undefined {
  if (!isObject(member)) return undefined;
  if (member.type !== undefined && member.type !== "string") return undefined;
  if (typeof member.const === "string") return [member.const];
  if (Array.isArray(member.enum) && member.enum.every((v) => typeof v === "string")) return member.enum as string[];
  return undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
