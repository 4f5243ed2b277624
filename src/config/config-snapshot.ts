import fs from "node:fs";
import { isMap, isPair, isScalar, visit } from "yaml";
import { ConfigError, type ConfigIssue } from "./errors.js";
import { hashConfigBytes } from "./load.js";
import { parseConfigText, parseYamlDocument } from "./parse.js";
import { isYamlPath } from "./paths.js";
import { isSecretAt, redactConfig, REDACTED } from "./redact.js";
import type { OpenClawConfig } from "./types.js";
import { answeredExecReads } from "./secrets/exec-reads.js";
import { validateConfig } from "./validate.js";

export type ConfigFileFormat = "yaml" | "json";

/** The config file as an editor sees it, secrets replaced by the redaction marker. */
export interface ConfigFileSnapshot {
  path: string;
  exists: boolean;
  /** How `raw` is written and how an edit's `raw` is read: YAML for .yaml/.yml, JSON5 otherwise. */
  format: ConfigFileFormat;
  /** The file's text, redacted; YAML keeps its comments. Null when there is no file. */
  raw: string | null;
  /** The file's data as written (no defaults), redacted; null when it does not parse. */
  parsed: unknown;
  /** The effective config (defaults applied), redacted; null when the file is invalid. */
  config: OpenClawConfig | null;
  valid: boolean;
  issues: ConfigIssue[];
  warnings: string[];
  /** sha256 of the file's bytes: the `baseHash` an edit must name. Null when there is no file. */
  hash: string | null;
}

export function configFileFormat(filePath: string): ConfigFileFormat {
  return isYamlPath(filePath) ? "yaml" : "json";
}

/** Reads the file if present; a file that does not exist is an empty, valid config. */
export function readConfigFileSnapshot(filePath: string, env: NodeJS.ProcessEnv = process.env): ConfigFileSnapshot {
  const format = configFileFormat(filePath);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new ConfigError(`cannot read config file ${filePath}: ${(err as Error).message}`, { filePath });
    const { config, warnings } = validateConfig({}, env);
    return { path: filePath, exists: false, format, raw: null, parsed: {}, config: redactConfig(config), valid: true, issues: [], warnings, hash: null };
  }
  const text = bytes.toString("utf8");
  const hash = hashConfigBytes(bytes);
  let parsed: unknown;
  try {
    parsed = parseConfigText(text, filePath);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // The text stays hidden too: a file that does not parse may still hold a secret.
    return { path: filePath, exists: true, format, raw: null, parsed: null, config: null, valid: false, issues: err.issues, warnings: [], hash };
  }
  const raw = format === "yaml" ? redactYamlText(text, filePath) : `${JSON.stringify(redactConfig(parsed), null, 2)}\n`;
  try {
    const { config, warnings, secretPaths } = validateConfig(parsed, env, { filePath, execReads: answeredExecReads });
    return { path: filePath, exists: true, format, raw, parsed: redactConfig(parsed), config: redactConfig(config, secretPaths), valid: true, issues: [], warnings, hash };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { path: filePath, exists: true, format, raw, parsed: redactConfig(parsed), config: null, valid: false, issues: err.issues, warnings: [], hash };
  }
}

/** The YAML text with every secret scalar replaced by the marker; comments and layout stay. */
function redactYamlText(text: string, filePath: string): string {
  const doc = parseYamlDocument(text, filePath);
  visit(doc, {
    Pair(_key, pair, ancestors) {
      if (!isPair(pair) || !isScalar(pair.key) || !isScalar(pair.value)) return;
      // The dotted path of the map holding this pair: the keys of the pairs above it.
      const parentPath = ancestors.flatMap((node) => (isPair(node) && isScalar(node.key) ? [String(node.key.value)] : [])).join(".");
      if (isSecretAt(parentPath, String(pair.key.value), pair.value.value)) pair.value.value = REDACTED;
    },
  });
  // A document whose root is not a map cannot hold keyed secrets; it is shown as it was.
  return isMap(doc.contents) || doc.contents === null ? doc.toString({ lineWidth: 0, flowCollectionPadding: false }) : text;
}
