import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError } from "../tool-result.js";
import type { SessionToolCaller, SessionToolHost, ToolContext, ToolResult } from "../types.js";

/**
 * Runs `use` with the host (`ctx.services.sessionTools`) and the caller, or explains why the
 * session tools cannot work here (a local one-off run has no host and no session).
 */
export async function withSessionHost(ctx: ToolContext, use: (host: SessionToolHost, caller: SessionToolCaller) => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  const host = ctx.services.sessionTools;
  if (!host || !ctx.sessionKey) {
    return toolError(TOOL_ERRORS.sessionsUnavailable());
  }
  return use(host, { sessionKey: ctx.sessionKey, agentId: ctx.agentId, senderIsOwner: ctx.senderIsOwner, workspaceDir: ctx.workspaceDir });
}
