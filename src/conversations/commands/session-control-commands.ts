import type { OpenClawConfig } from "../../config/index.js";
import { agentModelChoice, resolveAgentConfig } from "../../agents/agent-config.js";
import { modelAllowed } from "../../agents/model-policy.js";
import { configuredReasoningDefault, isReasoningLevel, REASONING_LEVELS } from "../../agents/reasoning-visibility.js";
import { sessionControlsPatch, THINKING_LEVELS, VERBOSE_LEVELS } from "../../agents/session-controls.js";
import { listConfiguredModels } from "../../models/index.js";
import { parseSessionKey } from "../../sessions/keys/index.js";
import type { SessionEntry, SessionPatch } from "../../sessions/store/index.js";

/** What the session commands need: the config, and the session row to read and patch. */
export interface SessionControlDeps {
  config: OpenClawConfig;
  env: NodeJS.ProcessEnv;
  sessionKey: string;
  entry: SessionEntry | undefined;
  patch(patch: SessionPatch): void;
}

/** `/model` (show), `/model list`, `/model <ref|alias>` (strict choice), `/model default` (back to the agent's). */
export function modelCommand(args: string, deps: SessionControlDeps): string {
  const arg = args.trim();
  const agentId = parseSessionKey(deps.sessionKey).agentId;
  const choice = agentModelChoice(deps.config, resolveAgentConfig(deps.config, agentId));
  const selected = deps.entry?.modelOverrideSource === "user" ? deps.entry.modelOverride : undefined;
  if (!arg) {
    const chain = [choice.primary, ...choice.fallbacks].filter(Boolean).join(" → ");
    return selected
      ? `Model: ${selected} (your choice for this session; no fallback). /model default goes back to ${chain || "the agent's model"}.`
      : `Model: ${chain || "not configured"} (the agent's${choice.fallbacks.length ? ", with fallbacks" : ""}).${deps.entry?.model ? ` Last answer from ${deps.entry.model}.` : ""}`;
  }
  if (arg === "list") {
    const rows = listConfiguredModels(deps.config, deps.env).filter((r) => modelAllowed(deps.config, agentId, r.ref).ok);
    if (rows.length === 0) return "No models configured (models.providers, agents.defaults.model), or none allowed by modelPolicy.allow.";
    const current = selected ?? choice.primary;
    return ["Models:", ...rows.map((r) => `${r.ref === current ? "•" : " "} ${r.ref}${r.name ? ` (${r.name})` : ""}${r.available ? "" : " — no key"}`)].join("\n");
  }
  const clear = arg === "default" || arg === "reset";
  const checked = sessionControlsPatch({ model: clear ? null : arg }, agentId, deps.config, deps.env);
  if (!checked.ok) return checked.message;
  deps.patch(checked.patch as SessionPatch);
  return clear
    ? `Model: back to the agent's (${choice.primary ?? "not configured"}).`
    : `Model for this session: ${checked.patch.modelOverride}. It is used from the next message, with no fallback.`;
}

/** `/think` (show) or `/think <level>`: the thinking level of this session's next turns. */
export function thinkCommand(args: string, deps: SessionControlDeps): string {
  const arg = args.trim().toLowerCase();
  const fallback = deps.config.agents.defaults.thinkingDefault ?? "off";
  if (!arg) return `Thinking: ${deps.entry?.thinkingLevel ?? `${fallback} (default)`}. Levels: ${THINKING_LEVELS.join(", ")}.`;
  const checked = sessionControlsPatch({ thinkingLevel: arg === "default" ? null : arg }, parseSessionKey(deps.sessionKey).agentId, deps.config, deps.env);
  if (!checked.ok) return checked.message;
  deps.patch(checked.patch as SessionPatch);
  return `Thinking for this session: ${checked.patch.thinkingLevel ?? `${fallback} (default)`}. Models that cannot think ignore it.`;
}

/** `/verbose` (toggle), `/verbose on|off|full`: tool calls shown before replies. */
export function verboseCommand(args: string, deps: SessionControlDeps): string {
  const arg = args.trim().toLowerCase();
  const fallback = deps.config.agents.defaults.verboseDefault ?? "off";
  const current = deps.entry?.verboseLevel ?? fallback;
  const next = arg || (current === "off" ? "on" : "off");
  const checked = sessionControlsPatch({ verboseLevel: next }, parseSessionKey(deps.sessionKey).agentId, deps.config, deps.env);
  if (!checked.ok) return checked.message;
  // The default level is not stored: the session follows agents.defaults.verboseDefault again.
  deps.patch({ verboseLevel: next === fallback ? null : next });
  const what =
    next === "off" ? "replies only" : next === "on" ? "each tool call is listed before the reply" : "each tool call and the start of its result are listed before the reply";
  return `Verbose: ${next} (${what}). Levels: ${VERBOSE_LEVELS.join(", ")}.`;
}

const REASONING_EFFECT = {
  off: "the model's reasoning is not shown",
  on: "the model's reasoning comes as a message of its own before each reply",
  stream: "the reply's live draft shows the model's reasoning until the answer begins, in chats that stream a draft",
} as const;

/** `/reasoning` (show), `/reasoning on|off|stream|default`: what this chat sees of the model's reasoning. */
export function reasoningCommand(args: string, deps: SessionControlDeps): string {
  const arg = args.trim().toLowerCase();
  const fallback = configuredReasoningDefault(deps.config, parseSessionKey(deps.sessionKey).agentId);
  const own = deps.entry?.reasoningLevel;
  const levels = `Levels: ${REASONING_LEVELS.join(", ")}, default.`;
  if (!arg) {
    const current = own && isReasoningLevel(own) ? own : fallback;
    const source = own ? "this session's choice" : fallback === "off" ? "the default" : "the agent's reasoningDefault, for the owner's messages";
    return `Reasoning: ${current} (${source}: ${REASONING_EFFECT[current]}). ${levels}`;
  }
  if (arg !== "default" && !isReasoningLevel(arg)) return `Unknown reasoning level "${args.trim()}". ${levels}`;
  deps.patch({ reasoningLevel: arg === "default" ? null : arg });
  if (arg === "default") return `Reasoning: back to the default (${fallback}: ${REASONING_EFFECT[fallback]}).`;
  return `Reasoning for this session: ${arg} (${REASONING_EFFECT[arg]}).`;
}
