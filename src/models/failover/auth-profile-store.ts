import fs from "node:fs";
import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import { writeFileAtomicAsync } from "../../infra/atomic-file.js";
import { ensurePrivateDir } from "../../infra/paths.js";
import { whereJsonBreaks } from "../../infra/json-error-position.js";
import { readTextIfExists } from "../../infra/read-optional.js";
import { afterFailure, afterSuccess, blockedUntil, DEFAULT_COOLDOWNS, type CooldownSettings, type ProfileUsage } from "./cooldowns.js";
import type { FailoverReason } from "./failure-reason.js";
import { collectProfiles, type AuthProfile, type StoredProfile } from "./profile-sources.js";

/** auth-profiles.json: the agent's own profiles, an optional order per provider, and what failures left. */
export interface AuthProfilesFile {
  version: 1;
  profiles: Record<string, StoredProfile>;
  order?: Record<string, string[]>;
  usageStats: Record<string, ProfileUsage>;
  /**
   * The file's top-level object as read. A write replaces only its usageStats: profiles this
   * gateway cannot use (OpenClaw's `oauth`, secret references) and fields it does not know stay.
   */
  asWritten: Record<string, unknown>;
}

export interface BlockedProfile {
  profile: AuthProfile;
  until: number;
  reason: string;
}

/** The keys to try for one model, best first, and those that must wait. */
export interface ProfileChoice {
  usable: AuthProfile[];
  blocked: BlockedProfile[];
}

/** `<state>/agents/<agentId>/agent/auth-profiles.json`. */
export function authProfilesPath(stateDir: string, agentId: string): string {
  return path.join(stateDir, "agents", agentId, "agent", "auth-profiles.json");
}

const RELOAD_CHECK_MS = 1_000;

/**
 * One agent's auth profiles and their cooldowns. The file is read when it changes on disk (so a
 * profile added by hand is picked up), and written (0600, atomically, off the event loop) when a
 * failure changes a cooldown — so a restart remembers them. A success is recorded in memory and
 * written with the next change: a turn that works costs no disk write.
 */
export class AuthProfileStore {
  private data: AuthProfilesFile = emptyFile();
  private loadedMtimeMs = -1;
  private checkedAt = -Infinity;
  private writeVersion = 0;
  private writing: Promise<unknown> = Promise.resolve();
  /** Why the file on disk could not be read, while that is so. */
  loadError: string | undefined;

  constructor(
    readonly file: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keys for `provider` to use with `modelId`: pinned first if usable, then the order (docs/models.md), then those waiting. */
  choose(provider: string, modelId: string, config: OpenClawConfig, env: NodeJS.ProcessEnv, pinnedId?: string): ProfileChoice {
    this.refresh();
    const now = this.now();
    const all = this.ordered(provider, config, env);
    const usable: AuthProfile[] = [];
    const blocked: BlockedProfile[] = [];
    for (const profile of all) {
      const block = blockedUntil(this.data.usageStats[profile.id], modelId, now);
      if (block) blocked.push({ profile, ...block });
      else usable.push(profile);
    }
    blocked.sort((a, b) => a.until - b.until);
    const pinned = usable.findIndex((p) => p.id === pinnedId);
    if (pinned > 0) usable.unshift(...usable.splice(pinned, 1));
    return { usable, blocked };
  }

  /**
   * Why `provider` has keys but none to use: an explicit order (`auth.order.<p>`, else the file's
   * `order.<p>`) that names none of them. Names the order's place, its ids, the keys there are and
   * the fix; undefined when the order leaves a key or the provider has none at all.
   */
  orderExcludesAll(provider: string, config: OpenClawConfig, env: NodeJS.ProcessEnv): string | undefined {
    this.refresh();
    const fromConfig = config.auth?.order?.[provider];
    const explicit = fromConfig ?? this.data.order?.[provider];
    if (!explicit?.length) return undefined;
    const found = this.collected(provider, config, env);
    if (found.length === 0 || found.some((p) => explicit.includes(p.id))) return undefined;
    const place = fromConfig ? `auth.order.${provider}` : `order.${provider} of ${this.file}`;
    return (
      `No key of provider "${provider}" is in ${place}, which names only ${explicit.join(", ")} (its keys: ${found.map((p) => p.id).join(", ")}). ` +
      `Add one of them to ${place}, or remove ${place} to use them all.`
    );
  }

  /** Every profile of `provider` in order, ignoring cooldowns (for status displays). */
  ordered(provider: string, config: OpenClawConfig, env: NodeJS.ProcessEnv): AuthProfile[] {
    this.refresh();
    const found = this.collected(provider, config, env);
    const explicit = config.auth?.order?.[provider] ?? this.data.order?.[provider];
    if (explicit?.length) {
      const rank = new Map(explicit.map((id, i) => [id, i]));
      // Profiles the order does not name are not used: the order is the operator's whole choice.
      return found.filter((p) => rank.has(p.id)).sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
    }
    // Tokens before API keys, then the least recently used first, so sessions spread over keys.
    const typeRank = (p: AuthProfile) => (p.type === "token" ? 0 : 1);
    const lastUsed = (p: AuthProfile) => this.data.usageStats[p.id]?.lastUsed ?? 0;
    return found
      .map((p, i) => ({ p, i }))
      .sort((a, b) => typeRank(a.p) - typeRank(b.p) || lastUsed(a.p) - lastUsed(b.p) || a.i - b.i)
      .map((e) => e.p);
  }

  /**
   * collectProfiles, remembered until the profiles file, the config object or the environment
   * object changes: scanning the environment for numbered keys is the costliest step of picking a
   * key, and a turn picks twice. The gateway never changes its own environment while it runs.
   */
  private collected(provider: string, config: OpenClawConfig, env: NodeJS.ProcessEnv): AuthProfile[] {
    let byProvider = this.collectedFor.get(config);
    if (!byProvider) this.collectedFor.set(config, (byProvider = new Map()));
    const known = byProvider.get(provider);
    if (known && known.profiles === this.data.profiles && known.env === env) return known.found;
    const found = collectProfiles(provider, this.data.profiles, config, env);
    byProvider.set(provider, { profiles: this.data.profiles, env, found });
    return found;
  }

  private readonly collectedFor = new WeakMap<OpenClawConfig, Map<string, { profiles: AuthProfilesFile["profiles"]; env: NodeJS.ProcessEnv; found: AuthProfile[] }>>();

  /** The order the operator set for `provider` (`auth.order.<p>`, else the file's `order.<p>`), when one is set. */
  explicitOrder(provider: string, config: OpenClawConfig): string[] | undefined {
    this.refresh();
    const explicit = config.auth?.order?.[provider] ?? this.data.order?.[provider];
    return explicit?.length ? [...explicit] : undefined;
  }

  /** The providers the file has profiles or an order for. */
  fileProviders(): string[] {
    this.refresh();
    return [...new Set([...Object.values(this.data.profiles).map((p) => p.provider), ...Object.keys(this.data.order ?? {})])];
  }

  /** Reads the file now if it changed, instead of within the next second. */
  reload(): void {
    this.checkedAt = -Infinity;
    this.refresh();
  }

  usage(profileId: string): ProfileUsage | undefined {
    this.refresh();
    return this.data.usageStats[profileId];
  }

  recordFailure(profileId: string, reason: FailoverReason, modelId: string, settings: CooldownSettings, retryAfterMs?: number): void {
    const previous = this.data.usageStats[profileId] ?? {};
    this.data.usageStats[profileId] = afterFailure(previous, reason, modelId, this.now(), settings, retryAfterMs);
    this.persist();
  }

  recordSuccess(profileId: string): void {
    const previous = this.data.usageStats[profileId];
    const hadFailures = previous && (previous.errorCount || previous.cooldownUntil || previous.disabledUntil);
    this.data.usageStats[profileId] = afterSuccess(previous ?? {}, this.now());
    if (hadFailures) this.persist();
  }

  /** Resolves once every write started so far is on disk (tests, shutdown). */
  async flush(): Promise<void> {
    await this.writing;
  }

  private refresh(): void {
    const now = Date.now();
    if (now - this.checkedAt < RELOAD_CHECK_MS) return;
    this.checkedAt = now;
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(this.file).mtimeMs;
    } catch {
      return;
    }
    if (mtimeMs === this.loadedMtimeMs) return;
    const text = readTextIfExists(this.file);
    this.loadedMtimeMs = mtimeMs;
    if (text === undefined) return;
    let parsed: AuthProfilesFile;
    try {
      parsed = parseProfilesFile(text, this.file);
      this.loadError = undefined;
    } catch (err) {
      // A file broken by hand must not stop every turn: the last good content stays in use.
      this.loadError = (err as Error).message;
      return;
    }
    // What this process learned since (cooldowns not yet written) is kept over an older file.
    this.data = { ...parsed, usageStats: { ...parsed.usageStats, ...this.unwrittenStats(parsed.usageStats) } };
  }

  private unwrittenStats(fromDisk: Record<string, ProfileUsage>): Record<string, ProfileUsage> {
    const out: Record<string, ProfileUsage> = {};
    for (const [id, usage] of Object.entries(this.data.usageStats)) {
      if ((usage.lastFailureAt ?? 0) > (fromDisk[id]?.lastFailureAt ?? 0)) out[id] = usage;
    }
    return out;
  }

  private persist(): void {
    // A file the user broke by hand is theirs to fix: writing the cooldowns over it would lose
    // the profiles in it. They stay in memory and are written with the next change once it reads.
    if (this.loadError !== undefined) return;
    const version = ++this.writeVersion;
    const { asWritten, usageStats } = this.data;
    const text = `${JSON.stringify({ version: 1, profiles: {}, ...asWritten, usageStats }, null, 2)}\n`;
    this.writing = this.writing
      .then(async () => {
        if (version !== this.writeVersion) return;
        ensurePrivateDir(path.dirname(this.file));
        await writeFileAtomicAsync(this.file, text, 0o600, () => version === this.writeVersion);
        try {
          this.loadedMtimeMs = fs.statSync(this.file).mtimeMs;
        } catch {
          // Removed meanwhile: the next refresh finds nothing and keeps memory.
        }
      })
      .catch(() => {
        // A failed write keeps the state in memory; the next failure tries again.
      });
  }
}

export function cooldownSettings(config: OpenClawConfig): CooldownSettings {
  return { ...DEFAULT_COOLDOWNS, ...(config.auth?.cooldowns ?? {}) };
}

/** Reads auth-profiles.json; a file that is not valid JSON is an error naming the file. */
export function parseProfilesFile(text: string, file: string): AuthProfilesFile {
  let raw: { profiles?: unknown; order?: unknown; usageStats?: unknown } | null;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON (${whereJsonBreaks(text)}); fix or remove it.`);
  }
  const profiles: Record<string, StoredProfile> = {};
  for (const [id, p] of Object.entries((raw?.profiles ?? {}) as Record<string, { provider?: unknown; type?: unknown; token?: unknown; key?: unknown } | null>)) {
    if (!p || typeof p.provider !== "string") continue;
    if (p.type === "token" && typeof p.token === "string") profiles[id] = { type: "token", provider: p.provider, token: p.token };
    else if ((p.type === "api_key" || p.type === undefined) && typeof p.key === "string") profiles[id] = { type: "api_key", provider: p.provider, key: p.key };
  }
  return {
    version: 1,
    profiles,
    ...(raw?.order && typeof raw.order === "object" ? { order: raw.order as Record<string, string[]> } : {}),
    usageStats: raw?.usageStats && typeof raw.usageStats === "object" ? (raw.usageStats as Record<string, ProfileUsage>) : {},
    asWritten: raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {},
  };
}

function emptyFile(): AuthProfilesFile {
  return { version: 1, profiles: {}, usageStats: {}, asWritten: {} };
}
