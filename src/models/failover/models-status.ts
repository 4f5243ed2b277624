import type { OpenClawConfig } from "../../config/index.js";
import { resolveModel } from "../resolve-model.js";
import type { AuthProfileStore } from "./auth-profile-store.js";
import type { CandidateChain } from "./candidate-chain.js";
import { blockedUntil } from "./cooldowns.js";
import { maskSecret } from "./profile-sources.js";

export interface ProfileStatus {
  id: string;
  type: "api_key" | "token";
  source: "file" | "config" | "env";
  /** The secret masked (`sk-…1234`): enough to tell keys apart, never to use one. */
  secret: string;
  state: "ready" | "cooldown" | "disabled";
  until?: string;
  reason?: string;
  /** A rate limit rests the key for this model only. */
  model?: string;
  errorCount?: number;
  lastUsed?: string;
}

export interface ModelsStatus {
  agentId: string;
  profilesFile: string;
  profilesFileError?: string;
  chain: { ref: string; resolves: boolean; problem?: string }[];
  strict: boolean;
  providers: Record<string, ProfileStatus[]>;
  /** Providers that take requests without a key (an Ollama server on this machine or the LAN), when any. */
  keyOptional?: string[];
}

/** `openclaw models status`: the chain a turn of this agent walks, and each provider's keys with their cooldowns. */
export function modelsStatus(input: {
  config: OpenClawConfig;
  env: NodeJS.ProcessEnv;
  agentId: string;
  chain: CandidateChain;
  store: AuthProfileStore;
  now?: number;
}): ModelsStatus {
  const { config, env, store, chain } = input;
  const now = input.now ?? Date.now();
  const providers: Record<string, ProfileStatus[]> = {};
  const keyOptional = new Set<string>();
  const rows = chain.refs.map((ref) => {
    const resolved = resolveModel(ref, config, env, { requireKey: false });
    if (!resolved.ok) return { ref, resolves: false, problem: resolved.message };
    const { provider, id } = resolved.model;
    if (resolved.model.keyOptional) keyOptional.add(provider);
    providers[provider] ??= store.ordered(provider, config, env).map((profile) => {
      const usage = store.usage(profile.id);
      const block = blockedUntil(usage, usage?.cooldownModel ?? id, now);
      return {
        id: profile.id,
        type: profile.type,
        source: profile.source,
        secret: maskSecret(profile.secret),
        state: block ? (usage?.disabledUntil && usage.disabledUntil > now ? "disabled" : "cooldown") : "ready",
        ...(block ? { until: new Date(block.until).toISOString(), reason: block.reason } : {}),
        ...(block && usage?.cooldownModel ? { model: usage.cooldownModel } : {}),
        ...(usage?.errorCount ? { errorCount: usage.errorCount } : {}),
        ...(usage?.lastUsed ? { lastUsed: new Date(usage.lastUsed).toISOString() } : {}),
      } satisfies ProfileStatus;
    });
    return { ref, resolves: true };
  });
  return {
    agentId: input.agentId,
    profilesFile: store.file,
    ...(store.loadError ? { profilesFileError: store.loadError } : {}),
    chain: rows,
    strict: chain.strict,
    providers,
    ...(keyOptional.size > 0 ? { keyOptional: [...keyOptional] } : {}),
  };
}

/** The status as lines for a terminal. */
export function formatModelsStatus(status: ModelsStatus): string {
  const lines = [
    `Agent: ${status.agentId}`,
    `Auth profiles: ${status.profilesFile}${status.profilesFileError ? ` (unreadable: ${status.profilesFileError})` : ""}`,
    "",
    "Model chain:",
  ];
  status.chain.forEach((row, i) => lines.push(`  ${i + 1}. ${row.ref}${row.resolves ? "" : ` — ${row.problem}`}`));
  for (const [provider, profiles] of Object.entries(status.providers)) {
    lines.push("", `${provider}:`);
    if (profiles.length === 0) lines.push(status.keyOptional?.includes(provider) ? "  (no key needed: the server is on this machine or the LAN)" : "  (no key)");
    for (const p of profiles) {
      const state = p.state === "ready" ? "ready" : `${p.state} until ${p.until} (${p.reason}${p.model ? `, model ${p.model}` : ""})`;
      lines.push(`  ${p.id}  ${p.type} from ${p.source}  ${p.secret}  ${state}`);
    }
  }
  return lines.join("\n");
}
