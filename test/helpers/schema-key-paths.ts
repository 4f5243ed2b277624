import { Kind, type TSchema } from "@sinclair/typebox";

type Node = TSchema & { properties?: Record<string, TSchema>; patternProperties?: Record<string, TSchema>; items?: TSchema };
const kindOf = (schema: TSchema) => (schema as { [Kind]?: string })[Kind];

/**
 * Every key path the schema implements, with "*" for a key of a record of objects and "[]"
 * for an item of an array of objects. Records of plain values (headers, params) and
 * "string or object" unions count as one key each; so does a record of intersections (a channel's
 * `accounts`, which take the channel block's own keys).
 */
export function schemaKeyPaths(schema: TSchema, prefix = ""): string[] {
  const node = schema as Node;
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  if (kindOf(schema) === "Object") {
    return Object.entries(node.properties ?? {}).flatMap(([key, child]) => schemaKeyPaths(child, join(key)));
  }
  if (kindOf(schema) === "Record") {
    const valueSchema = Object.values(node.patternProperties ?? {})[0]!;
    return kindOf(valueSchema) === "Object" ? schemaKeyPaths(valueSchema, join("*")) : [prefix];
  }
  if (kindOf(schema) === "Array" && kindOf(node.items!) === "Object") return schemaKeyPaths(node.items!, `${prefix}[]`);
  return [prefix];
}
