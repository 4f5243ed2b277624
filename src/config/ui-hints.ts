import type { TSchema } from "@sinclair/typebox";
import { isSecretEntry } from "./redact.js";

export interface ConfigUiHint {
  /** The value is a credential: show it masked and prefer a ${VAR} reference. */
  sensitive?: true;
}

type SchemaNode = TSchema & {
  properties?: Record<string, TSchema>;
  patternProperties?: Record<string, TSchema>;
  items?: TSchema;
  anyOf?: TSchema[];
};

/**
 * Per-key hints for config editors, keyed by dot path where `*` stands for any map key or list
 * item (`models.providers.*.apiKey`). Only what the schema and the redaction rules know is listed.
 */
export function configUiHints(schema: TSchema): Record<string, ConfigUiHint> {
  let hints = hintsBySchema.get(schema);
  if (!hints) hintsBySchema.set(schema, (hints = Object.freeze(collectHints(schema))));
  return hints;
}

/** Hints depend on the schema alone, so each schema's are worked out once (and shared: frozen). */
const hintsBySchema = new WeakMap<TSchema, Record<string, ConfigUiHint>>();

function collectHints(schema: TSchema): Record<string, ConfigUiHint> {
  const hints: Record<string, ConfigUiHint> = {};
  const walk = (node: SchemaNode, path: string[]): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      if ((child as SchemaNode).type === "string" && isSecretEntry(key, "x")) hints[[...path, key].join(".")] = { sensitive: true };
      walk(child as SchemaNode, [...path, key]);
    }
    for (const child of Object.values(node.patternProperties ?? {})) walk(child as SchemaNode, [...path, "*"]);
    if (node.items) walk(node.items as SchemaNode, [...path, "*"]);
    for (const option of node.anyOf ?? []) walk(option as SchemaNode, path);
  };
  walk(schema as SchemaNode, []);
  return hints;
}
