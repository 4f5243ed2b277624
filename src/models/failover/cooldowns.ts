import type { FailoverReason } from "./failure-reason.js";

/** What a key's failures left behind; stored per profile id in auth-profiles.json `usageStats`. */
export interface ProfileUsage {
  lastUsed?: number;
  lastFailureAt?: number;
  /** Failures inside the failure window; picks the step of the cooldown ladder. */
  errorCount?: number;
  cooldownUntil?: number;
  cooldownReason?: FailoverReason;
  /** A rate limit cools the key for this model only; other models of the provider stay usable. */
  cooldownModel?: string;
  disabledUntil?: number;
  disabledReason?: "billing";
  /** Billing failures in a row; doubles the disable time. */
  billingCount?: number;
}

export interface CooldownSettings {
  billingBackoffHours: number;
  billingMaxHours: number;
  failureWindowHours: number;
}

export const DEFAULT_COOLDOWNS: CooldownSettings = { billingBackoffHours: 5, billingMaxHours: 24, failureWindowHours: 24 };

/** Auth, rate-limit and timeout failures: 30 s, then 1 min, then 5 min for every further one. */
const LADDER_MS = [30_000, 60_000, 300_000] as const;
const HOUR_MS = 3_600_000;

/** The usage after a failure of `reason` on `modelId` at `now`. */
export function afterFailure(usage: ProfileUsage, reason: FailoverReason, modelId: string, now: number, settings: CooldownSettings, retryAfterMs?: number): ProfileUsage {
  const inWindow = usage.lastFailureAt !== undefined && now - usage.lastFailureAt < settings.failureWindowHours * HOUR_MS;
  const next: ProfileUsage = { ...usage, lastFailureAt: now };
  if (reason === "billing") {
    const count = (usage.billingCount ?? 0) + 1;
    const hours = Math.min(settings.billingBackoffHours * 2 ** (count - 1), settings.billingMaxHours);
    return { ...next, billingCount: count, disabledUntil: now + hours * HOUR_MS, disabledReason: "billing" };
  }
  const errorCount = (inWindow ? (usage.errorCount ?? 0) : 0) + 1;
  const step = LADDER_MS[Math.min(errorCount, LADDER_MS.length) - 1]!;
  const waitMs = Math.max(step, retryAfterMs ?? 0);
  next.errorCount = errorCount;
  next.cooldownUntil = Math.max(usage.cooldownUntil ?? 0, now + waitMs);
  next.cooldownReason = reason;
  if (reason === "rate_limit") next.cooldownModel = modelId;
  else delete next.cooldownModel;
  return next;
}

/** A request with the key succeeded: its failures are forgiven. */
export function afterSuccess(_usage: ProfileUsage, now: number): ProfileUsage {
  return { lastUsed: now };
}

/** When the key can next be used for `modelId`; undefined when it can be used now. */
export function blockedUntil(usage: ProfileUsage | undefined, modelId: string, now: number): { until: number; reason: string } | undefined {
  if (!usage) return undefined;
  if (usage.disabledUntil !== undefined && usage.disabledUntil > now) return { until: usage.disabledUntil, reason: usage.disabledReason ?? "disabled" };
  if (usage.cooldownUntil !== undefined && usage.cooldownUntil > now && (!usage.cooldownModel || usage.cooldownModel === modelId)) {
    return { until: usage.cooldownUntil, reason: usage.cooldownReason ?? "cooldown" };
  }
  return undefined;
}
