import { toolError } from "../tool-result.js";
import type { ToolContext, ToolResult, ToolServices } from "../types.js";
import type { SessionsHistoryArgs } from "./sessions-history.js";
import type { SessionsListArgs } from "./sessions-list.js";
import type { SessionsSendArgs } from "./sessions-send.js";
import type { SessionsSpawnArgs } from "./sessions-spawn.js";
import type { SessionStatusArgs } from "./session-status.js";
import type { SubagentsArgs } from "./subagents.js";

/** Who is calling a session tool: the session whose turn made the call. */
export interface SessionToolCaller {
  sessionKey: string;
  agentId: string;
  senderIsOwner: boolean;
  workspaceDir: string;
}

/**
 * What the session tools (`sessions_spawn`, `subagents`, `sessions_send`, `sessions_list`,
 * `sessions_history`, `session_status`) act through. The gateway provides it as
 * `ctx.services.sessionTools`; without it (a local one-off run) the tools are not offered at all.
 */
export interface SessionToolHost {
  spawn(caller: SessionToolCaller, args: SessionsSpawnArgs): Promise<ToolResult>;
  subagents(caller: SessionToolCaller, args: SubagentsArgs): Promise<ToolResult>;
  send(caller: SessionToolCaller, args: SessionsSendArgs, signal: AbortSignal): Promise<ToolResult>;
  list(caller: SessionToolCaller, args: SessionsListArgs): ToolResult;
  history(caller: SessionToolCaller, args: SessionsHistoryArgs): ToolResult;
  status(caller: SessionToolCaller, args: SessionStatusArgs): ToolResult;
}

export function getSessionToolHost(services: ToolServices): SessionToolHost | undefined {
  const host = services.sessionTools as Partial<SessionToolHost> | undefined;
  return host && typeof host.spawn === "function" && typeof host.send === "function" ? (host as SessionToolHost) : undefined;
}

/** Runs `use` with the host and the caller, or explains why the session tools cannot work here. */
export async function withSessionHost(ctx: ToolContext, use: (host: SessionToolHost, caller: SessionToolCaller) => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  const host = getSessionToolHost(ctx.services);
  if (!host || !ctx.sessionKey) {
    return toolError("SESSIONS_UNAVAILABLE", "Session tools only work inside the gateway, in a turn of a session.", "Do the work in this turn instead.");
  }
  return use(host, { sessionKey: ctx.sessionKey, agentId: ctx.agentId, senderIsOwner: ctx.senderIsOwner, workspaceDir: ctx.workspaceDir });
}
