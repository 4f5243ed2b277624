import { getConfigValue, isEnvReference, type OpenClawConfig } from "../../config/index.js";
import { createBinaryLookup } from "./binary-on-path.js";
import type { DiscoveredSkill } from "./skill-types.js";

/** `skills.entries.<key>`, OpenClaw's per-skill settings: on or off, and the variables its commands get. */
export interface SkillEntryConfig {
  enabled?: boolean;
  apiKey?: string;
  env?: Record<string, string>;
}

export interface SkillFilterContext {
  /** `process.platform` by default. */
  platform?: string;
  /** PATH for `requires.bins` and the variables for `requires.env`; `process.env` by default. */
  env?: NodeJS.ProcessEnv;
  /** The loaded config, for `requires.config` key paths. */
  config?: unknown;
  /** From `resolveSkillAllowlist`; undefined means every skill is allowed. */
  allowlist?: readonly string[];
  /** `skills.allowBundled`: restricts bundled skills only; undefined means all of them. */
  allowBundled?: readonly string[];
  /** `skills.entries`, keyed by skill key (the name unless the skill sets `skillKey`). */
  entries?: Readonly<Record<string, SkillEntryConfig>>;
  /** Replaces the PATH lookup (tests, or a remote node's binaries). */
  hasBinary?: (name: string) => boolean;
}

/** The config's `skills.allowBundled` and `skills.entries`, as a filter context takes them. */
export function skillSettings(config: OpenClawConfig): Pick<SkillFilterContext, "allowBundled" | "entries"> {
  return {
    ...(config.skills?.allowBundled ? { allowBundled: config.skills.allowBundled } : {}),
    ...(config.skills?.entries ? { entries: config.skills.entries } : {}),
  };
}

export interface DroppedSkill {
  name: string;
  reason: string;
}

export interface FilteredSkills {
  kept: DiscoveredSkill[];
  dropped: DroppedSkill[];
}

/** Set, not blank, and not a `${NAME}` reference the config loader left as it was because NAME is unset. */
export function isSuppliedValue(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "" && !isEnvReference(value);
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== "";
}

function configTruthy(config: unknown, keyPath: string): boolean {
  try {
    const { found, value } = getConfigValue(config, keyPath);
    return found && Boolean(value);
  } catch {
    return false; // A malformed key path can never be satisfied.
  }
}

/** What a skill asks for that this machine lacks; every list is empty when it may run here. */
export interface MissingRequirements {
  bins: string[];
  /** The whole `anyBins` list when none of them is on PATH. */
  anyBins: string[];
  env: string[];
  config: string[];
  /** The skill's platforms when this one is not among them. */
  os: string[];
}

type ResolvedContext = Required<Pick<SkillFilterContext, "platform" | "env" | "hasBinary">> & SkillFilterContext;

function resolveContext(context: SkillFilterContext): ResolvedContext {
  const env = context.env ?? process.env;
  const platform = context.platform ?? process.platform;
  return { ...context, env, platform, hasBinary: context.hasBinary ?? createBinaryLookup(env, platform) };
}

function missingFor(skill: DiscoveredSkill, ctx: ResolvedContext): MissingRequirements {
  const { os, requires, always, primaryEnv } = skill.gating;
  const osMissing = os && os.length > 0 && !os.includes(ctx.platform) ? [...os] : [];
  if (always) return { bins: [], anyBins: [], env: [], config: [], os: osMissing };
  const entry = ctx.entries?.[skill.gating.skillKey ?? skill.name];
  const supplied = (name: string) => isSet(ctx.env[name]) || isSuppliedValue(entry?.env?.[name]) || (name === primaryEnv && isSuppliedValue(entry?.apiKey));
  return {
    bins: requires.bins.filter((bin) => !ctx.hasBinary(bin)),
    anyBins: requires.anyBins.length > 0 && !requires.anyBins.some((bin) => ctx.hasBinary(bin)) ? [...requires.anyBins] : [],
    env: requires.env.filter((name) => !supplied(name)),
    config: requires.config.filter((keyPath) => !configTruthy(ctx.config, keyPath)),
    os: osMissing,
  };
}

/** What `skill` asks for (binaries, variables, config keys, platform) that is missing here. */
export function missingRequirements(skill: DiscoveredSkill, context: SkillFilterContext = {}): MissingRequirements {
  return missingFor(skill, resolveContext(context));
}

/** Why `skill` may not be offered, or null when it may. Checks run most decisive first. */
function dropReason(skill: DiscoveredSkill, ctx: ResolvedContext): string | null {
  const key = skill.gating.skillKey ?? skill.name;
  if (ctx.entries?.[key]?.enabled === false) return `disabled by skills.entries.${key}.enabled`;
  if (ctx.allowlist && !ctx.allowlist.includes(skill.name)) return "not in the agent's skills allowlist";
  if (skill.source === "bundled" && ctx.allowBundled && !ctx.allowBundled.includes(skill.name)) return "bundled skill not in skills.allowBundled";
  const missing = missingFor(skill, ctx);
  if (missing.os.length > 0) return `needs os ${missing.os.join(" or ")} (this is ${ctx.platform})`;
  if (missing.bins.length > 0) return `missing on PATH: ${missing.bins.join(", ")}`;
  if (missing.anyBins.length > 0) return `needs one of on PATH: ${missing.anyBins.join(", ")}`;
  if (missing.env.length > 0) return `missing env: ${missing.env.join(", ")}`;
  if (missing.config.length > 0) return `config not set: ${missing.config.join(", ")}`;
  return null;
}

/**
 * Keeps the skills this agent can use here and now, in their given order, and says why each
 * other one was dropped (for `skills check` and logs). Channel and sender gating is not done:
 * the reference defines no such skill fields; tool policy covers who may do what.
 */
export function filterSkills(skills: readonly DiscoveredSkill[], context: SkillFilterContext = {}): FilteredSkills {
  const ctx = resolveContext(context);
  const kept: DiscoveredSkill[] = [];
  const dropped: DroppedSkill[] = [];
  for (const skill of skills) {
    const reason = dropReason(skill, ctx);
    if (reason) dropped.push({ name: skill.name, reason });
    else kept.push(skill);
  }
  return { kept, dropped };
}
