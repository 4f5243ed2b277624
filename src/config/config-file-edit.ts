import fs from "node:fs";
import JSON5 from "json5";
import { isScalar, type Document } from "yaml";
import { unwritableKeyIssues } from "./edit-key-check.js";
import { ConfigError, type ConfigIssue } from "./errors.js";
import { formatKeyPath, isPlainObject, setOwnProperty, type KeyPathSegment } from "./key-path.js";
import { hashConfigBytes } from "./load.js";
import { parseConfigText, parseYamlDocument } from "./parse.js";
import { configFileFormat } from "./config-snapshot.js";
import { REDACTED } from "./redact.js";
import { validateAndWriteConfig, validateEditedConfig } from "./set-value.js";
import { diffConfigPaths } from "./diff.js";
import type { OpenClawConfig } from "./types.js";

/** The file changed since the editor read it: its edit would overwrite someone else's. */
export class ConfigConflictError extends ConfigError {
  constructor(
    filePath: string,
    readonly currentHash: string | null,
  ) {
    super(`config file ${filePath} changed since it was read (baseHash does not match); read it again (config.get) and reapply the edit`, { filePath });
    this.name = "ConfigConflictError";
  }
}

/** An edit of a file that exists must say which version it was made against. */
export class ConfigBaseHashRequiredError extends ConfigError {
  constructor(filePath: string) {
    super(`config file ${filePath} exists: pass baseHash (the hash from config.get) so a concurrent edit is not overwritten`, { filePath });
    this.name = "ConfigBaseHashRequiredError";
  }
}

export interface ConfigEditOptions {
  /** Hash of the file the edit was made against; required when the file exists. */
  baseHash?: string;
  env?: NodeJS.ProcessEnv;
  /** Issues the caller finds in the valid result (the gateway: what would stop it from starting); any of them refuses the edit. */
  refuse?: (config: OpenClawConfig) => ConfigIssue[];
  /** Check the edit as a write would, and write nothing. */
  dryRun?: boolean;
}

export interface ConfigPatchOptions extends ConfigEditOptions {
  /** Lists at these key paths may lose entries; elsewhere a list that would lose entries refuses the patch. */
  replacePaths?: string[];
  /** Every list in the patch replaces the file's, whatever it drops (the CLI's `config patch`: the operator wrote the whole list). */
  replaceLists?: boolean;
  /** Objects at these key paths become the patch's value instead of being merged into. */
  replaceWholePaths?: string[];
}

export interface ConfigEditResult {
  path: string;
  hash: string;
  warnings: string[];
}

const YAML_OUTPUT = { lineWidth: 0, flowCollectionPadding: false } as const;
const YAML_HEADER = " OpenClaw gateway configuration (see docs/configuration.md)";

/**
 * Replaces the whole file with `raw` (YAML for a .yaml file, JSON5 otherwise). A value that is
 * still the redaction marker keeps what the file holds at that key. Validated first; nothing is
 * written on a conflict or an error. Throws ConfigError (issues carry the key paths).
 */
export function replaceConfigFile(filePath: string, raw: string, opts: ConfigEditOptions = {}): ConfigEditResult {
  const current = readForEdit(filePath, opts.baseHash);
  const format = configFileFormat(filePath);
  let data = parseConfigText(raw, filePath) as Record<string, unknown>;
  const restored = restoreRedacted(data, current.data);
  data = restored.data;
  let output = raw;
  if (restored.paths.length > 0) {
    if (format === "yaml") {
      const doc = parseYamlDocument(raw, filePath);
      for (const { segments, value } of restored.paths) doc.setIn(segments, value);
      output = doc.toString(YAML_OUTPUT);
    } else {
      output =
        restoreInJson5Text(
          raw,
          restored.paths.map((p) => p.value),
        ) ?? `${JSON.stringify(data, null, 2)}\n`;
    }
  }
  return validateAndWrite(filePath, current, data, output.endsWith("\n") ? output : `${output}\n`, opts);
}

/**
 * Applies a JSON merge patch (JSON5 text): objects merge, `null` deletes, other values replace.
 * An array that would lose entries is replaced only when its key path is in `replacePaths` (or
 * `replaceLists` is set); an object at a `replaceWholePaths` key path is replaced, not merged into.
 * YAML files keep their comments; JSON files are rewritten as JSON. Answers the leaf key paths
 * whose values changed.
 */
export function patchConfigFile(filePath: string, patchText: string, opts: ConfigPatchOptions = {}): ConfigEditResult & { changedPaths: string[] } {
  const current = readForEdit(filePath, opts.baseHash);
  // Merged into nothing, the patch would be written as the whole file: everything else in it lost.
  if (current.unparsable)
    throw new ConfigError(
      `config file ${filePath} does not parse, so it cannot be patched: ${current.unparsable.message} (fix it by hand, or replace its whole text; openclaw config validate shows where)`,
      { filePath },
    );
  let patch: unknown;
  try {
    patch = JSON5.parse(patchText);
  } catch (err) {
    throw new ConfigError(`config patch is not valid JSON5: ${(err as Error).message.replace(/^JSON5: /, "")}`);
  }
  if (!isPlainObject(patch)) throw new ConfigError("config patch must be an object (a JSON merge patch)");
  const issues: ConfigIssue[] = [];
  const rules: MergeRules = { replacePaths: new Set(opts.replacePaths ?? []), replaceLists: opts.replaceLists === true, replaceWhole: new Set(opts.replaceWholePaths ?? []) };
  const data = mergePatch(current.data, patch, [], rules, issues) as Record<string, unknown>;
  if (issues.length > 0) throw ConfigError.fromIssues(issues, filePath);

  let output: string;
  if (configFileFormat(filePath) === "yaml") {
    const doc = current.text !== null && current.text.trim() !== "" ? parseYamlDocument(current.text, filePath) : undefined;
    output = doc ? patchYamlDocument(doc, patch, current.data, data, [], rules.replaceWhole).toString(YAML_OUTPUT) : yamlFromData(data);
  } else {
    output = `${JSON.stringify(data, null, 2)}\n`;
  }
  return { ...validateAndWrite(filePath, current, data, output, opts), changedPaths: diffConfigPaths(current.data, data) };
}

interface MergeRules {
  replacePaths: Set<string>;
  replaceLists: boolean;
  replaceWhole: Set<string>;
}

interface CurrentFile {
  target: string;
  text: string | null;
  data: Record<string, unknown>;
  /** Why the file's text does not parse (then `data` is empty). */
  unparsable?: ConfigError;
}

function readForEdit(filePath: string, baseHash: string | undefined): CurrentFile {
  // Write through a symlink to its target instead of replacing the link with a plain file.
  const target = fs.existsSync(filePath) ? fs.realpathSync(filePath) : filePath;
  let bytes: Buffer | null = null;
  try {
    bytes = fs.readFileSync(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new ConfigError(`cannot read config file ${filePath}: ${(err as Error).message}`, { filePath });
  }
  if (bytes === null) {
    if (baseHash) throw new ConfigConflictError(filePath, null);
    return { target, text: null, data: {} };
  }
  if (!baseHash) throw new ConfigBaseHashRequiredError(filePath);
  const hash = hashConfigBytes(bytes);
  if (hash !== baseHash) throw new ConfigConflictError(filePath, hash);
  const text = bytes.toString("utf8");
  // A file that no longer parses can still be replaced whole (replaceConfigFile); a patch refuses it (patchConfigFile).
  let data: Record<string, unknown> = {};
  let unparsable: ConfigError | undefined;
  try {
    data = parseConfigText(text, filePath) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    unparsable = err;
  }
  return { target, text, data, ...(unparsable ? { unparsable } : {}) };
}

function validateAndWrite(filePath: string, current: CurrentFile, data: unknown, output: string, opts: ConfigEditOptions): ConfigEditResult {
  if (isPlainObject(data)) {
    const unwritable = unwritableKeyIssues(current.data, data);
    if (unwritable.length > 0) throw ConfigError.fromIssues(unwritable, filePath);
  }
  const env = opts.env ?? process.env;
  const { warnings } = opts.dryRun ? validateEditedConfig(filePath, data, env, opts.refuse) : validateAndWriteConfig(filePath, current.target, data, output, env, opts.refuse);
  return { path: filePath, hash: hashConfigBytes(Buffer.from(output, "utf8")), warnings };
}

interface RestoredValue {
  segments: KeyPathSegment[];
  value: unknown;
}

/** Puts the stored secret back wherever the editor left the redaction marker; in document order. */
function restoreRedacted(data: unknown, stored: unknown): { data: Record<string, unknown>; paths: RestoredValue[] } {
  const paths: RestoredValue[] = [];
  const issues: ConfigIssue[] = [];
  const walk = (value: unknown, old: unknown, segments: KeyPathSegment[]): unknown => {
    if (value === REDACTED) {
      if (old === undefined || old === REDACTED) {
        issues.push({ path: formatKeyPath(segments), message: "holds the redaction placeholder but the file has no value to keep there; enter the real value" });
        return value;
      }
      paths.push({ segments, value: old });
      return old;
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, Array.isArray(old) ? old[i] : undefined, [...segments, i]));
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) setOwnProperty(out, key, walk(child, isPlainObject(old) ? old[key] : undefined, [...segments, key]));
    return out;
  };
  const restored = walk(data, stored, []) as Record<string, unknown>;
  if (issues.length > 0) throw ConfigError.fromIssues(issues);
  return { data: restored, paths };
}

/**
 * Replaces the quoted markers in JSON5 text by the stored values, in order, so comments survive.
 * Null when the markers in the text and the values do not line up (then the caller rewrites).
 */
function restoreInJson5Text(text: string, values: unknown[]): string | null {
  const marker = new RegExp(`(["'])${REDACTED}\\1`, "g");
  const found = text.match(marker)?.length ?? 0;
  if (found !== values.length) return null;
  let i = 0;
  return text.replace(marker, () => JSON.stringify(values[i++]));
}

function mergePatch(target: unknown, patch: unknown, segments: KeyPathSegment[], rules: MergeRules, issues: ConfigIssue[]): unknown {
  // A replaced object is the patch's own, less its null keys (a merge patch's null deletes, never stores).
  if (segments.length > 0 && rules.replaceWhole.has(formatKeyPath(segments))) return mergePatch(undefined, patch, segments, { ...rules, replaceWhole: new Set() }, issues);
  if (!isPlainObject(patch)) {
    if (patch === REDACTED) return target; // the editor did not touch that secret
    if (Array.isArray(patch) && Array.isArray(target) && !rules.replaceLists && !rules.replacePaths.has(formatKeyPath(segments))) {
      const dropped = target.filter((old) => !patch.some((item) => JSON.stringify(item) === JSON.stringify(old)));
      if (dropped.length > 0) {
        issues.push({
          path: formatKeyPath(segments),
          message: `the patch would remove ${dropped.length} entr${dropped.length === 1 ? "y" : "ies"} of this list; add "${formatKeyPath(segments)}" to replacePaths to replace it`,
        });
      }
    }
    return patch;
  }
  const base: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else setOwnProperty(base, key, mergePatch(base[key], value, [...segments, key], rules, issues));
  }
  return base;
}

/**
 * The same merge on the YAML document, node by node, so untouched lines and comments stay. What is
 * written where nothing is merged into is the merged data's value (`merged`), so a new object's
 * null keys are left out of the file as they are out of the data that was validated.
 */
function patchYamlDocument(doc: Document, patch: Record<string, unknown>, current: unknown, merged: unknown, segments: KeyPathSegment[], replaceWhole: Set<string>): Document {
  for (const [key, value] of Object.entries(patch)) {
    const at = [...segments, key];
    const old = isPlainObject(current) ? current[key] : undefined;
    const result = isPlainObject(merged) ? merged[key] : value;
    if (value === null) doc.deleteIn(at);
    else if (value === REDACTED) continue;
    else if (isPlainObject(value) && isPlainObject(old) && !replaceWhole.has(formatKeyPath(at))) patchYamlDocument(doc, value, old, result, at, replaceWhole);
    else {
      const node = doc.getIn(at, true);
      if (isScalar(node) && typeof result !== "object") node.value = result;
      else doc.setIn(at, doc.createNode(result));
    }
  }
  return doc;
}

function yamlFromData(data: unknown): string {
  const doc = parseYamlDocument("{}", "patch.yaml");
  doc.contents = doc.createNode(data) as typeof doc.contents;
  doc.commentBefore = YAML_HEADER;
  return doc.toString(YAML_OUTPUT);
}
