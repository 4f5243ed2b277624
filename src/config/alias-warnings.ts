import type { RawOpenClawConfig } from "./schema/index.js";

/**
 * Aliases match in any case, and the first model (in file order) holding one wins, so the same
 * alias on a second model never reaches it: each such alias gets a warning naming the models.
 */
export function aliasWarnings(config: RawOpenClawConfig): string[] {
  const holders = new Map<string, string[]>();
  for (const [ref, entry] of Object.entries(config.agents?.defaults?.models ?? {})) {
    const alias = typeof entry?.alias === "string" ? entry.alias.trim().toLowerCase() : "";
    if (!alias || !ref.includes("/")) continue;
    holders.set(alias, [...(holders.get(alias) ?? []), ref]);
  }
  return [...holders]
    .filter(([, refs]) => refs.length > 1)
    .map(
      ([alias, refs]) =>
        `agents.defaults.models: the alias "${alias}" is given to ${refs.slice(0, -1).join(", ")} and ${refs.at(-1)} (aliases match in any case), so it always means ${refs[0]}: give each model its own alias`,
    );
}
