import os from "node:os";
import type { RawOpenClawConfig } from "./schema/index.js";
import { DEFAULT_GATEWAY_PORT } from "./default-port.js";
import type { OpenClawConfig } from "./types.js";

/** A turn's time limit when `agents.defaults.timeoutSeconds` sets none: 48 hours. */
export const DEFAULT_AGENT_TIMEOUT_SECONDS = 172_800;

/** `session.maintenance.maxDiskBytes` when unset, as OpenClaw's: each agent's sessions folder may take 10 GiB. */
export const DEFAULT_MAX_DISK_BYTES = 10 * 1024 ** 3;

export const DEFAULT_RATE_LIMIT = {
  maxAttempts: 10,
  windowMs: 60_000,
  lockoutMs: 300_000,
  exemptLoopback: true,
} as const;

/** Parallel agent runs: at least 8 (runs mostly wait on the network), at most 16. */
export function defaultMaxConcurrent(cpuCount = os.cpus().length): number {
  return Math.min(16, Math.max(8, cpuCount));
}

type RawAuth = NonNullable<NonNullable<RawOpenClawConfig["gateway"]>["auth"]>;

// Token is the default because the gateway can generate one; a lone password is the
// user's explicit choice of password auth.
function defaultAuthMode(auth: RawAuth): "token" | "password" {
  const hasToken = typeof auth.token === "string" && auth.token !== "";
  const hasPassword = typeof auth.password === "string" && auth.password !== "";
  return hasPassword && !hasToken ? "password" : "token";
}

/**
 * Fills every defaulted key, returning a fresh object (the input is never mutated, and no
 * two results share nested objects). Expects a config that already passed validation.
 * `gateway.auth.token` is deliberately left unset: the gateway generates and persists one.
 */
export function applyDefaults(input: RawOpenClawConfig): OpenClawConfig {
  const raw = structuredClone(input);
  const gateway = raw.gateway ?? {};
  const auth = gateway.auth ?? {};
  const endpoints = gateway.http?.endpoints ?? {};
  const agents = raw.agents ?? {};
  const agentDefaults = agents.defaults ?? {};

  return {
    ...raw,
    gateway: {
      ...gateway,
      mode: gateway.mode ?? "local",
      port: gateway.port ?? DEFAULT_GATEWAY_PORT,
      bind: gateway.bind ?? "loopback",
      auth: {
        ...auth,
        mode: auth.mode ?? defaultAuthMode(auth),
        rateLimit: { ...DEFAULT_RATE_LIMIT, ...auth.rateLimit },
      },
      reload: { ...gateway.reload, mode: gateway.reload?.mode ?? "hybrid" },
      http: {
        ...gateway.http,
        endpoints: {
          ...endpoints,
          chatCompletions: { ...endpoints.chatCompletions, enabled: endpoints.chatCompletions?.enabled ?? false },
          responses: { ...endpoints.responses, enabled: endpoints.responses?.enabled ?? false },
        },
      },
    },
    logging: { ...raw.logging, level: raw.logging?.level ?? "info" },
    agents: {
      ...agents,
      defaults: {
        ...agentDefaults,
        timeoutSeconds: agentDefaults.timeoutSeconds ?? DEFAULT_AGENT_TIMEOUT_SECONDS,
        maxConcurrent: agentDefaults.maxConcurrent ?? defaultMaxConcurrent(),
        bootstrapMaxChars: agentDefaults.bootstrapMaxChars ?? 20_000,
        bootstrapTotalMaxChars: agentDefaults.bootstrapTotalMaxChars ?? 60_000,
      },
    },
    session: {
      ...raw.session,
      scope: raw.session?.scope ?? "per-sender",
      dmScope: raw.session?.dmScope ?? "main",
      mainKey: raw.session?.mainKey ?? "main",
    },
    models: { ...raw.models, mode: raw.models?.mode ?? "merge" },
  };
}

/** The config a gateway runs with when there is no file at all. */
export function defaultConfig(): OpenClawConfig {
  return applyDefaults({});
}
