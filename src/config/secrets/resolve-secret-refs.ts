import { Check } from "@sinclair/typebox/value";
import type { ConfigIssue } from "../errors.js";
import { collectSchemaIssues } from "../issue-messages.js";
import { formatKeyPath, isPlainObject, setOwnProperty, type KeyPathSegment } from "../key-path.js";
import { SecretsSchema } from "../schema/secrets.js";
import { readEnvSecrets } from "../../infra/secrets/env-secrets.js";
import { readFileSecrets } from "../../infra/secrets/file-secrets.js";
import { chooseSecretProvider, type SecretProviderSettings, type SecretsSettings } from "../../infra/secrets/secret-provider.js";
import type { SecretOutcome } from "../../infra/secrets/secret-value.js";
import { REDACTED } from "../redact.js";
import { acceptsSecretRef } from "./secret-ref-paths.js";
import { asSecretRef, describeSecretRef, secretRefProblem, type SecretRef } from "./secret-ref.js";
import { runExecReads, type ExecSecretReads } from "./exec-reads.js";
import { secretProviderIssues } from "./secret-providers.js";

// Every value a SecretRef gave in this process: whatever key it sits at, it is a secret, and
// views that hide secrets by key name (traces) hide these too.
const readThroughRefs = new Set<string>();

/** The values SecretRefs gave in this process, for redaction by value. */
export function secretRefValues(): ReadonlySet<string> {
  return readThroughRefs;
}

export interface SecretRefResolution {
  /** The config with every SecretRef replaced by its value (the input when it holds none). */
  config: Record<string, unknown>;
  issues: ConfigIssue[];
  /** Key paths whose value came from a SecretRef: redaction hides them whatever their key is called. */
  resolvedPaths: string[];
}

interface FoundRef {
  path: KeyPathSegment[];
  ref: SecretRef;
}

interface ProviderReads {
  alias: string;
  provider: SecretProviderSettings;
  ids: Set<string>;
  refs: FoundRef[];
}

/**
 * Replaces each SecretRef (`{source, provider?, id}`) at a credential key with the secret it
 * names, reading each provider once for all its ids. Every ref that cannot be read is an issue
 * naming its key, the ref and why, never a secret. Runs at every load, so a start or reload (and
 * `secrets.reload`) reads the secrets as they are then.
 */
export function resolveSecretRefs(config: Record<string, unknown>, env: NodeJS.ProcessEnv, execReads: ExecSecretReads = runExecReads): SecretRefResolution {
  const found: FoundRef[] = [];
  collectRefs(config, [], found);
  if (found.length === 0) return { config, issues: [], resolvedPaths: [] };

  const block = config.secrets ?? {};
  if (!Check(SecretsSchema, block)) {
    const shapeIssues = collectSchemaIssues(SecretsSchema, block).map((issue) => ({ ...issue, path: issue.path ? `secrets.${issue.path}` : "secrets" }));
    return { config, issues: shapeIssues, resolvedPaths: [] };
  }
  const secrets = block as SecretsSettings;
  // A provider with a wrong key is not run: its command or file may not be what the owner meant.
  const providerIssues = secretProviderIssues(secrets);
  const issues: ConfigIssue[] = [];
  const reads = new Map<string, ProviderReads>();
  for (const item of found) {
    const at = formatKeyPath(item.path);
    if (!acceptsSecretRef(item.path)) {
      issues.push({ path: at, message: "a SecretRef is read only at credential keys (tokens, passwords, API keys, provider headers; docs/configuration.md, Secrets), not here" });
      continue;
    }
    const problem = secretRefProblem(item.ref);
    if (problem) {
      issues.push({ path: at, message: problem });
      continue;
    }
    const choice = chooseSecretProvider(item.ref.source as SecretProviderSettings["source"], item.ref.provider, secrets);
    if ("problem" in choice) {
      issues.push({ path: at, message: `SecretRef ${describeSecretRef(item.ref, choice.alias)}: ${choice.problem}` });
      continue;
    }
    const key = `${item.ref.source}:${choice.alias}`;
    const reading = reads.get(key) ?? { alias: choice.alias, provider: choice.provider, ids: new Set<string>(), refs: [] };
    reading.ids.add(item.ref.id);
    reading.refs.push(item);
    reads.set(key, reading);
  }
  if (providerIssues.length > 0) return { config, issues: [...providerIssues, ...issues], resolvedPaths: [] };

  let resolved = config;
  const resolvedPaths: string[] = [];
  for (const reading of reads.values()) {
    const outcomes = readProvider(reading, env, execReads);
    for (const { path, ref } of reading.refs) {
      const outcome = placeholderRefused(outcomes.get(ref.id) ?? { problem: "no value" });
      if ("problem" in outcome) {
        issues.push({ path: formatKeyPath(path), message: `cannot read SecretRef ${describeSecretRef(ref, reading.alias)}: ${outcome.problem}` });
        continue;
      }
      resolved = withValueAt(resolved, path, outcome.value);
      resolvedPaths.push(formatKeyPath(path));
      readThroughRefs.add(outcome.value);
    }
  }
  return issues.length > 0 ? { config, issues, resolvedPaths: [] } : { config: resolved, issues: [], resolvedPaths };
}

/** The redaction placeholder is what a redacted copy of a secret holds, never a secret. */
function placeholderRefused(outcome: SecretOutcome): SecretOutcome {
  if ("value" in outcome && outcome.value === REDACTED)
    return { problem: `the value is the redaction placeholder ${REDACTED}, not a secret; put the real value back at its source` };
  return outcome;
}

function readProvider(reading: ProviderReads, env: NodeJS.ProcessEnv, execReads: ExecSecretReads): Map<string, SecretOutcome> {
  const ids = [...reading.ids];
  switch (reading.provider.source) {
    case "env":
      return readEnvSecrets(reading.provider, ids, env);
    case "file":
      return readFileSecrets(reading.provider, ids);
    case "exec":
      return execReads({ alias: reading.alias, provider: reading.provider, ids }, env);
  }
}

// The `secrets` block describes providers; a ref-shaped object inside it is not a ref.
function collectRefs(value: unknown, path: KeyPathSegment[], out: FoundRef[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectRefs(item, [...path, index], out));
    return;
  }
  if (!isPlainObject(value)) return;
  const ref = asSecretRef(value);
  if (ref) {
    out.push({ path, ref });
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (path.length === 0 && key === "secrets") continue;
    collectRefs(child, [...path, key], out);
  }
}

/** A copy of `root` with `value` at `path`, sharing every branch off the path. */
function withValueAt(root: Record<string, unknown>, path: KeyPathSegment[], value: string): Record<string, unknown> {
  const set = (node: unknown, depth: number): unknown => {
    if (depth === path.length) return value;
    const key = path[depth]!;
    if (Array.isArray(node)) return node.map((item, index) => (index === key ? set(item, depth + 1) : item));
    const copy: Record<string, unknown> = { ...(node as Record<string, unknown>) };
    setOwnProperty(copy, String(key), set(copy[String(key)], depth + 1));
    return copy;
  };
  return set(root, 0) as Record<string, unknown>;
}
