import { formatKeyPath } from "../config/index.js";
import { canonicalRef, modelTargetOrFail, rawDefault, readModelsConfig, reportSaved, writeModelsKey, type ModelsConfigFile } from "./models-config-file.js";
import { CliError, printJson } from "./output.js";

/** An alias as OpenClaw accepts one: letters, digits, `.`, `_`, `:`, `-`. */
function normalizeAlias(raw: string): string {
  const alias = raw.trim();
  if (!alias) throw new CliError("Alias cannot be empty.");
  if (!/^[A-Za-z0-9_.:-]+$/.test(alias)) throw new CliError(`Alias "${alias}" must use letters, numbers, dots, underscores, colons, or dashes.`);
  return alias;
}

/** `agents.defaults.models` as the file holds it: model key → its entry. */
function fileModelEntries(file: ModelsConfigFile): [string, Record<string, unknown>][] {
  const models = rawDefault(file, "models");
  if (typeof models !== "object" || models === null) return [];
  return Object.entries(models as Record<string, unknown>).map(([key, entry]) => [key, typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {}]);
}

function aliasOf(entry: { alias?: unknown } | undefined): string | undefined {
  return typeof entry?.alias === "string" && entry.alias.trim() ? entry.alias.trim() : undefined;
}

function entryKeyPath(modelKey: string, ...rest: string[]): string {
  return formatKeyPath(["agents", "defaults", "models", modelKey, ...rest]);
}

/** Every alias of the loaded config → its model, sorted by alias. */
export function modelsAliasesListCommand(flags: { json?: boolean; plain?: boolean }): void {
  if (flags.json && flags.plain) throw new CliError("Choose either --json or --plain, not both.");
  const { config } = readModelsConfig();
  const aliases = Object.entries(config.agents?.defaults?.models ?? {})
    .flatMap(([ref, entry]) => {
      const alias = aliasOf(entry);
      return alias ? [[alias, ref] as const] : [];
    })
    .sort(([a], [b]) => a.localeCompare(b));
  if (flags.json) return printJson({ aliases: Object.fromEntries(aliases) });
  if (flags.plain) {
    process.stdout.write(aliases.map(([alias, ref]) => `${alias} ${ref}\n`).join(""));
    return;
  }
  const lines = [`Aliases (${aliases.length}):`, ...(aliases.length === 0 ? ["- none"] : aliases.map(([alias, ref]) => `- ${alias} -> ${ref}`))];
  process.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * Gives the resolved model the alias (an alias as the model repoints, never chains). The model's
 * previous alias is replaced; an alias another model holds is refused.
 */
export function modelsAliasesAddCommand(aliasRaw: string, modelRaw: string): void {
  const alias = normalizeAlias(aliasRaw);
  const file = readModelsConfig();
  const target = modelTargetOrFail(modelRaw, file.config);
  const entries = fileModelEntries(file);
  const holder = entries.find(([key, entry]) => aliasOf(entry)?.toLowerCase() === alias.toLowerCase() && canonicalRef(key, file.config) !== target.ref);
  if (holder) {
    throw new CliError(`Alias ${alias} already points to ${holder[0]}. Remove it first (openclaw models aliases remove ${alias}), then add it again.`);
  }
  // The model's own entry, under whatever key the file spells it.
  const [modelKey, entry] = entries.find(([key]) => canonicalRef(key, file.config) === target.ref) ?? [target.ref, undefined];
  const previous = aliasOf(entry);
  if (previous === alias) {
    process.stdout.write(`Alias ${alias} -> ${modelKey} (unchanged)\n`);
    return;
  }
  const warnings = writeModelsKey(file, entryKeyPath(modelKey, "alias"), alias);
  const notes = [
    ...(target.warning ? [target.warning] : []),
    ...(previous && previous.toLowerCase() !== alias.toLowerCase() ? [`${modelKey} was "${previous}"; that alias no longer exists`] : []),
  ];
  reportSaved(file, `Alias ${alias} -> ${modelKey}`, [...notes, ...warnings]);
}

/** Removes the alias (in any case) from every model holding it; an entry left empty goes too. */
export function modelsAliasesRemoveCommand(aliasRaw: string): void {
  const alias = normalizeAlias(aliasRaw);
  const file = readModelsConfig();
  const holders = fileModelEntries(file).filter(([, entry]) => aliasOf(entry)?.toLowerCase() === alias.toLowerCase());
  if (holders.length === 0) throw new CliError(`Alias not found: ${alias}. Run openclaw models aliases list to see configured aliases.`);
  const warnings: string[] = [];
  for (const [modelKey, entry] of holders) {
    const onlyAlias = Object.keys(entry).every((k) => k === "alias");
    warnings.push(...writeModelsKey(file, onlyAlias ? entryKeyPath(modelKey) : entryKeyPath(modelKey, "alias"), undefined));
  }
  const left = readModelsConfig().config.agents?.defaults?.models ?? {};
  const none = Object.values(left).every((entry) => !aliasOf(entry));
  const removed = holders.map(([key, entry]) => `${aliasOf(entry)} -> ${key}`).join(", ");
  reportSaved(file, `Removed alias ${removed}${none ? "\nNo aliases configured." : ""}`, [...new Set(warnings)]);
}
