import type { TSchema } from "@sinclair/typebox";
import { restartRequiredPaths } from "./diff.js";
import type { ConfigUiHint } from "./ui-hints.js";

type SchemaNode = TSchema & {
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  required?: string[];
};

export type ReloadKind = "restart" | "hot";

export interface ConfigSchemaLookupChild {
  key: string;
  path: string;
  type?: string | string[];
  required: boolean;
  hasChildren: boolean;
  reloadKind: ReloadKind;
  hint?: ConfigUiHint;
}

export interface ConfigSchemaLookup {
  path: string;
  /** The node's own facts (type, description, enum, bounds, its variants'), without its subtree. */
  schema: Record<string, unknown>;
  reloadKind: ReloadKind;
  hint?: ConfigUiHint;
  /** One level down: named keys, then `*` for any map key or list item. */
  children: ConfigSchemaLookupChild[];
}

const MAX_SEGMENTS = 32;
const SCALAR_KEYS = ["type", "description", "title", "default", "const", "enum", "format", "pattern", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"];

/**
 * One config key's schema node, as `config.schema.lookup` and the gateway tool answer it: the
 * path `a.b.c` (`a.list[0]` or `a.list.*` for a list item, `.` for the root), whether a change
 * there applies live or waits for a restart, and its immediate children. Null when the schema has
 * no such key.
 */
export function lookupConfigSchema(schema: TSchema, uiHints: Record<string, ConfigUiHint>, path: string): ConfigSchemaLookup | null {
  const wantsRoot = path.trim() === ".";
  const segments = wantsRoot ? [] : splitPath(path);
  if ((!wantsRoot && segments.length === 0) || segments.length > MAX_SEGMENTS) return null;
  let node: SchemaNode | undefined = schema as SchemaNode;
  for (const segment of segments) {
    node = childOf(node, segment);
    if (!node) return null;
  }
  const normalized = segments.join(".");
  const hint = hintFor(uiHints, segments);
  return {
    path: wantsRoot ? "." : normalized,
    schema: facts(node),
    reloadKind: reloadKindOf(normalized),
    ...(hint ? { hint } : {}),
    children: childrenOf(node, segments, uiHints),
  };
}

function splitPath(path: string): string[] {
  return path
    .trim()
    .replace(/\[(\d+|\*)\]/g, ".$1")
    .split(".")
    .filter(Boolean);
}

/** The node under `segment`: a named key, else the map's or list's entry schema; looking through unions. */
function childOf(node: SchemaNode, segment: string): SchemaNode | undefined {
  for (const option of [node, ...(node.anyOf ?? [])]) {
    const named = option.properties?.[segment];
    if (named) return named;
    const entry = entryOf(option);
    if (entry && (option.items === undefined || segment === "*" || /^\d+$/.test(segment))) return entry;
  }
  return undefined;
}

function entryOf(node: SchemaNode): SchemaNode | undefined {
  const pattern = node.patternProperties ? Object.values(node.patternProperties)[0] : undefined;
  if (pattern) return pattern;
  if (typeof node.additionalProperties === "object") return node.additionalProperties;
  return node.items;
}

function facts(node: SchemaNode): Record<string, unknown> {
  const own = scalarFacts(node);
  if (!node.anyOf) return own;
  // A union of literals is an enum; any other union lists its variants' own facts.
  const consts = node.anyOf.map((o) => (o as Record<string, unknown>).const);
  if (consts.every((c) => c !== undefined)) own.enum = consts;
  else own.anyOf = node.anyOf.map(scalarFacts);
  return own;
}

function scalarFacts(node: SchemaNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SCALAR_KEYS) if ((node as Record<string, unknown>)[key] !== undefined) out[key] = (node as Record<string, unknown>)[key];
  if (out.type === undefined && node.anyOf) out.type = [...new Set(node.anyOf.flatMap((o) => (typeof o.type === "string" ? [o.type] : [])))];
  return out;
}

function childrenOf(node: SchemaNode, segments: string[], uiHints: Record<string, ConfigUiHint>): ConfigSchemaLookupChild[] {
  const children: ConfigSchemaLookupChild[] = [];
  const seen = new Set<string>();
  const push = (key: string, child: SchemaNode, required: boolean) => {
    if (seen.has(key)) return;
    seen.add(key);
    const childSegments = [...segments, key];
    const hint = hintFor(uiHints, childSegments);
    children.push({
      key,
      path: childSegments.join("."),
      ...(child.type !== undefined ? { type: child.type as string } : child.anyOf ? { type: scalarFacts(child).type as string[] } : {}),
      required,
      hasChildren: hasChildren(child),
      reloadKind: reloadKindOf(childSegments.join(".")),
      ...(hint ? { hint } : {}),
    });
  };
  for (const option of [node, ...(node.anyOf ?? [])]) {
    const required = new Set(option.required ?? []);
    for (const [key, child] of Object.entries(option.properties ?? {})) push(key, child, required.has(key));
  }
  for (const option of [node, ...(node.anyOf ?? [])]) {
    const entry = entryOf(option);
    if (entry) push("*", entry, false);
  }
  return children;
}

function hasChildren(node: SchemaNode): boolean {
  return [node, ...(node.anyOf ?? [])].some((o) => Object.keys(o.properties ?? {}).length > 0 || entryOf(o) !== undefined);
}

/** A hint is keyed with `*` for map keys and list items; the lookup may name a real key there. */
function hintFor(uiHints: Record<string, ConfigUiHint>, segments: string[]): ConfigUiHint | undefined {
  const exact = uiHints[segments.join(".")];
  if (exact) return exact;
  for (const [key, hint] of Object.entries(uiHints)) {
    const parts = key.split(".");
    if (parts.length === segments.length && parts.every((part, i) => part === "*" || part === segments[i])) return hint;
  }
  return undefined;
}

function reloadKindOf(path: string): ReloadKind {
  return path && restartRequiredPaths([path]).length > 0 ? "restart" : "hot";
}
