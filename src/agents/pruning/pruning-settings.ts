import type { OpenClawConfig } from "../../config/index.js";
import type { PruneOptions } from "./prune-tool-results.js";
import { LRUCache } from "lru-cache";

/** `agents.defaults.contextPruning` resolved; undefined when the mode is `off` (the default). */
export interface PruningSettings extends Omit<PruneOptions, "windowTokens"> {
  ttlMs: number;
}

/** A ttl set by hand without a value. */
export const DEFAULT_PRUNING_TTL_MS = 5 * 60_000;

export function resolvePruningSettings(config: OpenClawConfig): PruningSettings | undefined {
  const p = config.agents.defaults.contextPruning;
  if (!p || (p.mode ?? "off") === "off") return undefined;
  return {
    ttlMs: p.ttl ? parseDurationMs(p.ttl) : DEFAULT_PRUNING_TTL_MS,
    ...(p.tools ? { tools: p.tools } : {}),
    ...(p.hardClear ? { hardClear: p.hardClear } : {}),
  };
}

/** "30s", "5m", "1h", "250ms" (the schema checks the shape). */
export function parseDurationMs(text: string): number {
  const match = /^(\d+)(ms|s|m|h)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] as "ms" | "s" | "m" | "h"];
  return Number(match[1]) * unit;
}

/**
 * When each session last called its provider. Pruning waits until the provider's prompt cache
 * has expired (the ttl since the last call), so a warm cache is never invalidated by it.
 */
export class PruningClock {
  /** Bounded like the history windows: the least recently active sessions are forgotten. */
  private readonly lastCallAt = new LRUCache<string, number>({ max: 1_024 });

  due(sessionKey: string, ttlMs: number, now: number): boolean {
    const last = this.lastCallAt.get(sessionKey);
    return last === undefined || now - last >= ttlMs;
  }

  touch(sessionKey: string, now: number): void {
    this.lastCallAt.set(sessionKey, now);
  }
}
