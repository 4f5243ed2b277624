import fs from "node:fs";
import path from "node:path";
import JSON5 from "json5";
import { Document, isScalar } from "yaml";
import { writeFileAtomicSync } from "../infra/atomic-file.js";
import { unwritableKeyIssues } from "./edit-key-check.js";
import { ConfigError, type ConfigIssue } from "./errors.js";
import { formatKeyPath, isPlainObject, parseKeyPath, setOwnProperty, type KeyPathSegment } from "./key-path.js";
import { parseConfigText, parseYamlDocument, yamlDocumentToData } from "./parse.js";
import { isYamlPath } from "./paths.js";
import type { OpenClawConfig } from "./types.js";
import { answeredExecReads } from "./secrets/exec-reads.js";
import { validateConfig } from "./validate.js";

// No folding of long strings, and `[a, b]` rather than `[ a, b ]`, so untouched lines of a
// hand-written file come back as they were.
const YAML_OUTPUT = { lineWidth: 0, flowCollectionPadding: false } as const;

/** A `config set` value: JSON5 when it parses (numbers, booleans, arrays, objects), else the raw text. */
export function parseCliValue(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch {
    return text;
  }
}

interface Edit {
  filePath: string;
  keyPath: string;
  segments: KeyPathSegment[];
  value: unknown;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  return isPlainObject(value) ? "an object" : `a ${typeof value}`;
}

/**
 * Checks the path against the current data before anything changes: every existing
 * intermediate must be a container, numeric keys on arrays become indexes, and an index may
 * append but not leave a gap. Returns the segments in the form the containers need.
 */
function resolveSegments(data: unknown, edit: Edit): KeyPathSegment[] {
  const fail = (why: string): never => {
    throw new ConfigError(`cannot set ${edit.keyPath}: ${why}`);
  };
  const resolved: KeyPathSegment[] = [];
  let current: unknown = data;
  for (const segment of edit.segments) {
    const where = formatKeyPath(resolved) || "the config root";
    const absent = current === undefined || current === null;
    let key: KeyPathSegment = segment;
    if (Array.isArray(current) || (absent && typeof segment === "number")) {
      const length = Array.isArray(current) ? current.length : 0;
      key = typeof segment === "number" ? segment : /^\d+$/.test(segment) ? Number(segment) : NaN;
      if (Number.isNaN(key)) fail(`${where} is an array, not an object`);
      if ((key as number) > length) fail(`index ${key} is past the end of ${where} (${length} items)`);
    } else if (!absent && !isPlainObject(current)) {
      fail(`${where} is ${kindOf(current)}, not an object`);
    } else {
      key = String(segment);
    }
    resolved.push(key);
    current = absent ? undefined : (current as Record<string, unknown>)[String(key)];
  }
  return resolved;
}

function setInPlainData(root: Record<string, unknown>, segments: KeyPathSegment[], value: unknown): void {
  let container: Record<string, unknown> = root;
  segments.forEach((segment, i) => {
    const key = String(segment);
    if (i === segments.length - 1) {
      setOwnProperty(container, key, value);
      return;
    }
    if (container[key] === undefined || container[key] === null) {
      setOwnProperty(container, key, typeof segments[i + 1] === "number" ? [] : {});
    }
    container = container[key] as Record<string, unknown>; // arrays index the same way
  });
}

function requireObjectRoot(data: unknown, filePath: string): Record<string, unknown> {
  if (data === null || data === undefined) return {};
  if (!isPlainObject(data)) throw new ConfigError(`${filePath}: config root must be an object`, { filePath });
  return data;
}

/** Edits the YAML document in place so comments, key order and quoting survive. */
function renderYaml(text: string | null, edit: Edit): { data: unknown; output: string } {
  const doc = text !== null && text.trim() !== "" ? parseYamlDocument(text, edit.filePath) : new Document();
  if (text === null) doc.commentBefore = " OpenClaw gateway configuration (see docs/configuration.md)";
  const segments = resolveSegments(requireObjectRoot(yamlDocumentToData(doc, edit.filePath), edit.filePath), edit);
  const existing = doc.getIn(segments, true);
  const isPrimitive = edit.value === null || typeof edit.value !== "object";
  // Changing the scalar rather than replacing its node keeps a trailing `# comment`.
  if (isScalar(existing) && isPrimitive) existing.value = edit.value;
  else doc.setIn(segments, doc.createNode(edit.value));
  return { data: yamlDocumentToData(doc, edit.filePath), output: doc.toString(YAML_OUTPUT) };
}

function renderJson(text: string | null, edit: Edit): { data: unknown; output: string } {
  const parsed = text === null ? {} : parseConfigText(text, edit.filePath);
  const data = structuredClone(requireObjectRoot(parsed, edit.filePath));
  setInPlainData(data, resolveSegments(data, edit), edit.value);
  return { data, output: `${JSON.stringify(data, null, 2)}\n` };
}

/**
 * `openclaw config set`: sets one key, validates the whole result, and only then replaces
 * the file atomically (temp file + fsync + rename, mode 0600). The value is written raw, so
 * a "${VAR}" stays a reference in the file. YAML keeps its comments and layout; JSON and
 * JSON5 files are rewritten as plain JSON. Returns the validation warnings (unknown keys the
 * file already held, unset variables) for the caller to show. Throws ConfigError, leaving the
 * file untouched, when the path or the resulting config is invalid, or when the edit adds a key
 * the schema does not know (as OpenClaw's strict schema refuses it).
 */
export function setConfigValueInFile(filePath: string, keyPath: string, value: unknown, env: NodeJS.ProcessEnv = process.env): { warnings: string[] } {
  const segments = parseKeyPath(keyPath);
  if (segments.length === 0) throw new ConfigError("config set needs a key path");
  const edit: Edit = { filePath, keyPath, segments, value };

  return rewriteConfigFile(filePath, env, (text) => {
    const rendered = isYamlPath(filePath) ? renderYaml(text, edit) : renderJson(text, edit);
    if (isPlainObject(rendered.data)) {
      const before = text === null ? {} : requireObjectRoot(parseConfigText(text, filePath), filePath);
      const unwritable = unwritableKeyIssues(before, rendered.data);
      if (unwritable.length > 0) throw ConfigError.fromIssues(unwritable, filePath);
    }
    return rendered;
  });
}

/**
 * `openclaw config unset`: removes one key (an array item shifts the ones after it), with the
 * same checks and atomic write as `config set`. Throws ConfigError, leaving the file untouched,
 * when the file or the key does not exist or the result is invalid.
 */
export function unsetConfigValueInFile(filePath: string, keyPath: string, env: NodeJS.ProcessEnv = process.env): { warnings: string[] } {
  const segments = parseKeyPath(keyPath);
  if (segments.length === 0) throw new ConfigError("config unset needs a key path");
  if (!fs.existsSync(filePath)) throw new ConfigError(`no config file at ${filePath}; nothing to unset`, { filePath });
  const notFound = () => new ConfigError(`Config path not found: ${keyPath}`, { filePath });
  return rewriteConfigFile(filePath, env, (text) => {
    if (isYamlPath(filePath)) {
      const doc = parseYamlDocument(text ?? "", filePath);
      const resolved = existingSegments(yamlDocumentToData(doc, filePath), segments);
      if (!resolved) throw notFound();
      doc.deleteIn(resolved);
      return { data: yamlDocumentToData(doc, filePath), output: doc.toString(YAML_OUTPUT) };
    }
    const data = structuredClone(requireObjectRoot(parseConfigText(text ?? "", filePath), filePath));
    const resolved = existingSegments(data, segments);
    if (!resolved) throw notFound();
    const parent = resolved.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[String(key)], data);
    const last = resolved.at(-1)!;
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as Record<string, unknown>)[String(last)];
    return { data, output: `${JSON.stringify(data, null, 2)}\n` };
  });
}

/** The segments of a key that exists in `data` (array indexes as numbers), else undefined. */
function existingSegments(data: unknown, segments: KeyPathSegment[]): KeyPathSegment[] | undefined {
  const resolved: KeyPathSegment[] = [];
  let current = data;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      const index = typeof segment === "number" ? segment : /^\d+$/.test(segment) ? Number(segment) : NaN;
      if (!(index >= 0 && index < current.length)) return undefined;
      resolved.push(index);
      current = current[index];
    } else if (isPlainObject(current) && Object.hasOwn(current, String(segment))) {
      resolved.push(String(segment));
      current = current[String(segment)];
    } else {
      return undefined;
    }
  }
  return resolved;
}

/** Renders the new file from the current text, validates the result, then replaces the file. */
function rewriteConfigFile(filePath: string, env: NodeJS.ProcessEnv, render: (text: string | null) => { data: unknown; output: string }): { warnings: string[] } {
  // Write through a symlink to its target instead of replacing the link with a plain file.
  const target = fs.existsSync(filePath) ? fs.realpathSync(filePath) : filePath;
  const text = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
  const { data, output } = render(text);

  return validateAndWriteConfig(filePath, target, data, output, env);
}

/** The checks an edit's result must pass before it is written (`validateAndWriteConfig` without the write); throws ConfigError attributed to `filePath`. */
export function validateEditedConfig(filePath: string, data: unknown, env: NodeJS.ProcessEnv, refuse?: (config: OpenClawConfig) => ConfigIssue[]): { warnings: string[] } {
  try {
    const validated = validateConfig(data, env, { filePath, execReads: answeredExecReads });
    const refused = refuse?.(validated.config) ?? [];
    if (refused.length > 0) throw ConfigError.fromIssues(refused);
    return { warnings: validated.warnings };
  } catch (err) {
    throw err instanceof ConfigError ? err.withFilePath(filePath) : err;
  }
}

/**
 * Validates the data an edit produced and only then replaces `target` (the config file, or the
 * file its symlink points at) with `output`, atomically and mode 0600. Throws ConfigError,
 * attributed to `filePath`, leaving the file untouched.
 */
export function validateAndWriteConfig(
  filePath: string,
  target: string,
  data: unknown,
  output: string,
  env: NodeJS.ProcessEnv,
  refuse?: (config: OpenClawConfig) => ConfigIssue[],
): { warnings: string[] } {
  const { warnings } = validateEditedConfig(filePath, data, env, refuse);
  // The first write into a fresh state dir creates it private, as the gateway would.
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(target, output, 0o600);
  return { warnings };
}
