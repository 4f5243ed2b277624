import { TOOL_ERRORS, type ToolRefusal } from "../agents/tool-errors.js";
import type { OpenClawConfig } from "../config/index.js";

/**
 * The ACP settings the gateway runs with, defaults filled. The agent table is read from
 * `plugins.entries.acpx.config.agents` (where OpenClaw keeps it) merged over its short form
 * `acp.agents`, and over the built-in commands of the adapters we know. See docs/acp.md.
 */

export type PermissionMode = "approve-all" | "approve-reads" | "deny-all";
export type NonInteractivePermissions = "fail" | "deny";

export interface AcpAgentCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Said when the command is missing. */
  installHint?: string;
}

export interface AcpSettings {
  enabled: boolean;
  defaultAgent?: string;
  /** Empty: every configured agent may be used. */
  allowedAgents: string[];
  agents: Record<string, AcpAgentCommand>;
  /** The agent ids the config names (its tables, defaultAgent, allowedAgents), built-ins left out. */
  configuredAgents: string[];
  timeoutSeconds: number;
  permissionMode: PermissionMode;
  nonInteractivePermissions: NonInteractivePermissions;
  maxConcurrentSessions: number;
  idleTimeoutSeconds: number;
  /** Bound chats' messages go to their ACP sessions (acp.dispatch.enabled). */
  dispatchEnabled: boolean;
  stream: { coalesceIdleMs: number; maxChunkChars: number; tagVisibility: Record<string, boolean>; repeatSuppression: boolean; deliveryMode: "live" | "final_only" };
}

export const DEFAULT_ACP_TIMEOUT_SECONDS = 120;
export const DEFAULT_MAX_CONCURRENT_SESSIONS = 8;
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 1800;

/** Progress a requester sees by default: the agent's words and its tool titles; not plans, usage or bookkeeping. */
export const DEFAULT_TAG_VISIBILITY: Record<string, boolean> = {
  agent_message_chunk: true,
  tool_call: true,
  tool_call_update: false,
  agent_thought_chunk: false,
  plan: false,
  usage_update: false,
  available_commands_update: false,
  current_mode_update: false,
  config_option_update: false,
  session_info_update: false,
};

/** The adapters we know: their usual command, and how to install it. A configured command wins. */
export const KNOWN_AGENTS: Record<string, AcpAgentCommand> = {
  claude: { command: "claude-agent-acp", args: [], env: {}, installHint: "npm install -g @zed-industries/claude-agent-acp" },
  codex: { command: "codex-acp", args: [], env: {}, installHint: "npm install -g @zed-industries/codex-acp" },
  gemini: { command: "gemini", args: ["--experimental-acp"], env: {}, installHint: "npm install -g @google/gemini-cli" },
};

export function resolveAcpSettings(config: OpenClawConfig): AcpSettings {
  const acp = config.acp ?? {};
  const acpx = config.plugins?.entries?.acpx?.config ?? {};
  const agents: Record<string, AcpAgentCommand> = { ...KNOWN_AGENTS };
  for (const table of [acp.agents ?? {}, acpx.agents ?? {}]) {
    for (const [id, entry] of Object.entries(table)) {
      agents[id] = {
        command: entry.command,
        args: entry.args ?? [],
        env: entry.env ?? {},
        ...(KNOWN_AGENTS[id]?.installHint ? { installHint: KNOWN_AGENTS[id]!.installHint } : {}),
      };
    }
  }
  const configuredAgents = [
    ...new Set([...Object.keys(acp.agents ?? {}), ...Object.keys(acpx.agents ?? {}), ...(acp.defaultAgent ? [acp.defaultAgent] : []), ...(acp.allowedAgents ?? [])]),
  ];
  return {
    enabled: acp.enabled ?? false,
    dispatchEnabled: acp.dispatch?.enabled ?? true,
    configuredAgents,
    ...(acp.defaultAgent ? { defaultAgent: acp.defaultAgent } : {}),
    allowedAgents: acp.allowedAgents ?? [],
    agents,
    timeoutSeconds: acpx.timeoutSeconds ?? DEFAULT_ACP_TIMEOUT_SECONDS,
    permissionMode: acpx.permissionMode ?? "approve-reads",
    nonInteractivePermissions: acpx.nonInteractivePermissions ?? "fail",
    maxConcurrentSessions: acp.maxConcurrentSessions ?? DEFAULT_MAX_CONCURRENT_SESSIONS,
    idleTimeoutSeconds: acp.idleTimeoutSeconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
    stream: {
      coalesceIdleMs: acp.stream?.coalesceIdleMs ?? 1000,
      maxChunkChars: acp.stream?.maxChunkChars ?? 800,
      tagVisibility: { ...DEFAULT_TAG_VISIBILITY, ...acp.stream?.tagVisibility },
      repeatSuppression: acp.stream?.repeatSuppression ?? true,
      deliveryMode: acp.stream?.deliveryMode ?? "live",
    },
  };
}

/** Which agent a request means, or why it may not have it. */
export function pickAgent(settings: AcpSettings, requested: string | undefined): { ok: true; agent: string } | { ok: false; refusal: ToolRefusal } {
  const known = Object.keys(settings.agents).join(", ");
  if (!settings.enabled) return { ok: false, refusal: TOOL_ERRORS.acpDisabled() };
  const agent = requested?.trim().toLowerCase() || settings.defaultAgent;
  if (!agent) return { ok: false, refusal: TOOL_ERRORS.acpNoAgentNamed(known) };
  if (!settings.agents[agent]) return { ok: false, refusal: TOOL_ERRORS.acpAgentUnknown(agent, known) };
  if (settings.allowedAgents.length > 0 && !settings.allowedAgents.includes(agent))
    return { ok: false, refusal: TOOL_ERRORS.acpAgentNotAllowed(agent, settings.allowedAgents.join(", ")) };
  return { ok: true, agent };
}
