import type { OpenClawConfig } from "../config/index.js";
import { canonicalRef, modelTargetOrFail, ownModelWarning, rawDefault, readModelsConfig, reportSaved, writeModelsKey, type ModelsConfigFile } from "./models-config-file.js";
import type { DefaultModelKey } from "./models-set-command.js";
import { CliError, printJson } from "./output.js";

/** What `models fallbacks` and `models image-fallbacks` say, as OpenClaw's. */
const WORDS: Record<DefaultModelKey, { label: string; notFound: string; cleared: string; command: string }> = {
  model: { label: "Fallbacks", notFound: "Fallback", cleared: "Fallback list cleared.", command: "openclaw models fallbacks list" },
  imageModel: { label: "Image fallbacks", notFound: "Image fallback", cleared: "Image fallback list cleared.", command: "openclaw models image-fallbacks list" },
};

/** `agents.defaults.<key>.fallbacks` of the loaded config, as written there (empty for a string or none). */
function configuredFallbacks(config: OpenClawConfig, key: DefaultModelKey): string[] {
  const value = config.agents?.defaults?.[key];
  return typeof value === "object" && value !== null ? [...(value.fallbacks ?? [])] : [];
}

/** The same list as the file holds it (`${VAR}` kept), for rewriting. */
function fileFallbacks(file: ModelsConfigFile, key: DefaultModelKey): string[] {
  const value = rawDefault(file, key);
  const list = typeof value === "object" && value !== null ? (value as { fallbacks?: unknown }).fallbacks : undefined;
  return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === "string") : [];
}

/**
 * Writes the new list: into `fallbacks` of an object (or a new one), or, for a string model,
 * as `{primary: <that string>, fallbacks}` since a string cannot hold fallbacks.
 */
function writeFallbacks(file: ModelsConfigFile, key: DefaultModelKey, fallbacks: string[]): string[] {
  const current = rawDefault(file, key);
  if (typeof current === "string") return writeModelsKey(file, `agents.defaults.${key}`, { primary: current, fallbacks });
  return writeModelsKey(file, `agents.defaults.${key}.fallbacks`, fallbacks);
}

function ownModelNotes(file: ModelsConfigFile, key: DefaultModelKey): string[] {
  return key === "model" ? ownModelWarning(file.config) : [];
}

export function modelsFallbacksListCommand(key: DefaultModelKey, flags: { json?: boolean; plain?: boolean }): void {
  if (flags.json && flags.plain) throw new CliError("Choose either --json or --plain, not both.");
  const fallbacks = configuredFallbacks(readModelsConfig().config, key);
  if (flags.json) return printJson({ fallbacks });
  if (flags.plain) {
    process.stdout.write(fallbacks.map((entry) => `${entry}\n`).join(""));
    return;
  }
  const lines = [`${WORDS[key].label} (${fallbacks.length}):`, ...(fallbacks.length === 0 ? ["- none"] : fallbacks.map((entry) => `- ${entry}`))];
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** Appends the resolved model; one already in the list (by alias or ref) leaves it as it is. */
export function modelsFallbacksAddCommand(key: DefaultModelKey, modelRaw: string): void {
  const file = readModelsConfig();
  const target = modelTargetOrFail(modelRaw, file.config);
  const current = configuredFallbacks(file.config, key);
  const notes = [...(target.warning ? [target.warning] : []), ...ownModelNotes(file, key)];
  if (current.some((entry) => canonicalRef(entry, file.config) === target.ref)) {
    process.stdout.write(`${target.ref} is already a fallback.\n${WORDS[key].label}: ${current.join(", ")}\n`);
    return;
  }
  const next = [...fileFallbacks(file, key), target.ref];
  const warnings = writeFallbacks(file, key, next);
  reportSaved(file, `${WORDS[key].label}: ${next.join(", ")}`, [...notes, ...warnings]);
}

/** Drops every entry naming the model (by alias or ref); the model need not resolve, so a stale entry can go. */
export function modelsFallbacksRemoveCommand(key: DefaultModelKey, modelRaw: string): void {
  const file = readModelsConfig();
  const wanted = canonicalRef(modelRaw, file.config);
  const written = fileFallbacks(file, key);
  const resolved = configuredFallbacks(file.config, key);
  // The loaded list and the file's line up entry by entry; a `${VAR}` entry is matched by its value.
  const next = written.filter((entry, i) => canonicalRef(resolved[i] ?? entry, file.config) !== wanted && entry.trim() !== modelRaw.trim());
  if (next.length === written.length) {
    throw new CliError(`${WORDS[key].notFound} not found: ${wanted}. Run ${WORDS[key].command} to see configured fallbacks.`);
  }
  const warnings = writeFallbacks(file, key, next);
  reportSaved(file, `${WORDS[key].label}: ${next.length > 0 ? next.join(", ") : "none"}`, [...ownModelNotes(file, key), ...warnings]);
}

export function modelsFallbacksClearCommand(key: DefaultModelKey): void {
  const file = readModelsConfig();
  if (fileFallbacks(file, key).length === 0) {
    process.stdout.write(`${WORDS[key].label}: none (nothing to clear)\n`);
    return;
  }
  const warnings = writeFallbacks(file, key, []);
  reportSaved(file, WORDS[key].cleared, warnings);
}
