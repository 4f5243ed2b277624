import fs from "node:fs";
import path from "node:path";
import JSON5 from "json5";
import { Document, isScalar } from "yaml";
import { writeFileAtomicSync } from "../infra/atomic-file.js";
import { ConfigError } from "./errors.js";
import { formatKeyPath, isPlainObject, parseKeyPath, setOwnProperty, type KeyPathSegment } from "./key-path.js";
import { parseConfigText, parseYamlDocument, yamlDocumentToData } from "./parse.js";
import { isYamlPath } from "./paths.js";
import { validateConfig } from "./validate.js";

const YAML_OUTPUT = { lineWidth: 0, flowCollectionPadding: false } as const;

/** A `config set` value: JSON5 when it parses (numbers, booleans, arrays, objects), else the raw text. */
export function parseCliValue(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch {
    return text;
  }
}

const describe = (value: unknown): string => (Array.isArray(value) ? "an array" : isPlainObject(value) ? "an object" : `a ${typeof value}`);

/**
 * Checks the path against the current data before anything is changed: numeric keys on
 * arrays become indexes, an index may at most append, and every existing intermediate must
 * be a container. Returns the normalized segments.
 */
function resolveSegments(data: unknown, segments: KeyPathSegment[], keyPath: string): KeyPathSegment[] {
  const resolved: KeyPathSegment[] = [];
  let current: unknown = data;
  for (let i = 0; i < segments.length; i += 1) {
    let segment = segments[i]!;
    const where = formatKeyPath(resolved) || "the config root";
    if (Array.isArray(current)) {
      const index = typeof segment === "number" ? segment : /^\d+$/.test(segment) ? Number(segment) : NaN;
      if (Number.isNaN(index)) throw new ConfigError(`cannot set ${keyPath}: ${where} is an array, not an object`);
      if (index > current.length) {
        throw new ConfigError(`cannot set ${keyPath}: index ${index} is past the end of ${where} (${current.length} items)`);
      }
      segment = index;
    } else if (current !== undefined && current !== null && !isPlainObject(current)) {
      throw new ConfigError(`cannot set ${keyPath}: ${where} is ${describe(current)}, not an object`);
    } else if (typeof segment === "number" && isPlainObject(current)) {
      segment = String(segment);
    } else if (typeof segment === "number" && segment > 0 && (current === undefined || current === null)) {
      throw new ConfigError(`cannot set ${keyPath}: index ${segment} is past the end of ${where} (0 items)`);
    }
    resolved.push(segment);
    current = current === undefined || current === null ? undefined : (current as Record<string, unknown>)[String(segment)];
  }
  return resolved;
}

function setInPlainData(root: Record<string, unknown>, segments: KeyPathSegment[], value: unknown): void {
  let current: Record<string, unknown> | unknown[] = root;
  segments.forEach((segment, i) => {
    const container = current as Record<string, unknown>;
    const key = String(segment);
    if (i === segments.length - 1) {
      setOwnProperty(container, key, value);
      return;
    }
    const existing = container[key];
    if (existing === undefined || existing === null) {
      setOwnProperty(container, key, typeof segments[i + 1] === "number" ? [] : {});
    }
    current = container[key] as Record<string, unknown> | unknown[];
  });
}

function requireObjectRoot(data: unknown, filePath: string): Record<string, unknown> {
  if (data === null || data === undefined) return {};
  if (!isPlainObject(data)) throw new ConfigError(`${filePath}: config root must be an object`, { filePath });
  return data;
}

function validateOrThrow(data: unknown, filePath: string, env: NodeJS.ProcessEnv): string[] {
  try {
    return validateConfig(data, env).warnings;
  } catch (err) {
    throw err instanceof ConfigError ? err.withFilePath(filePath) : err;
  }
}

function renderYaml(text: string | null, filePath: string, segments: KeyPathSegment[], keyPath: string, value: unknown) {
  const doc = text !== null && text.trim() !== "" ? parseYamlDocument(text, filePath) : new Document();
  if (text === null) doc.commentBefore = " OpenClaw gateway configuration (see docs/configuration.md)";
  const current = requireObjectRoot(yamlDocumentToData(doc, filePath), filePath);
  const resolved = resolveSegments(current, segments, keyPath);
  const existingNode = doc.getIn(resolved, true);
  const isPrimitive = value === null || typeof value !== "object";
  // Updating the scalar in place keeps comments attached to it (`port: 18789 # why`).
  if (isScalar(existingNode) && isPrimitive) existingNode.value = value;
  else doc.setIn(resolved, doc.createNode(value));
  return { data: yamlDocumentToData(doc, filePath), output: doc.toString(YAML_OUTPUT) };
}

function renderJson(text: string | null, filePath: string, segments: KeyPathSegment[], keyPath: string, value: unknown) {
  const data = structuredClone(requireObjectRoot(text === null ? {} : parseConfigText(text, filePath), filePath));
  setInPlainData(data, resolveSegments(data, segments, keyPath), value);
  return { data, output: `${JSON.stringify(data, null, 2)}\n` };
}

/**
 * `openclaw config set`: sets one key, validates the whole result, and only then replaces
 * the file atomically (temp file + fsync + rename, mode 0600). The value is written raw: a "${VAR}" stays a reference in the
 * file. YAML keeps its comments and layout; JSON/JSON5 files are rewritten as plain JSON.
 * Returns the validation warnings (unknown keys, unset variables) for the caller to show.
 * Throws ConfigError, leaving the file untouched, when the path or the result is invalid.
 */
export function setConfigValueInFile(
  filePath: string,
  keyPath: string,
  value: unknown,
  env: NodeJS.ProcessEnv = process.env,
): { warnings: string[] } {
  const segments = parseKeyPath(keyPath);
  if (segments.length === 0) throw new ConfigError("config set needs a key path");

  // Write through a symlink to its target instead of replacing the link with a file.
  const target = fs.existsSync(filePath) ? fs.realpathSync(filePath) : filePath;
  const text = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
  const render = isYamlPath(filePath) ? renderYaml : renderJson;
  const { data, output } = render(text, filePath, segments, keyPath, value);

  const warnings = validateOrThrow(data, filePath, env);
  // First write into a fresh state dir: create it private, as the gateway would.
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(target, output, 0o600);
  return { warnings };
}
