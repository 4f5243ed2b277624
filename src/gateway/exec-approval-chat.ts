import type { ExecApprovalRequest } from "../agents/approvals/approval-broker.js";
import type { ChannelManager } from "../channels/channel-manager.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { SessionStore } from "../sessions/store/index.js";
import { sessionChatRoute, type SessionChatRoute } from "./session-chat-route.js";

const COMMAND_CHARS = 300;

export interface ExecApprovalChatDeps {
  config: () => OpenClawConfig;
  channels: () => ChannelManager | undefined;
  store: SessionStore;
  logger: Logger;
}

/**
 * Exec approval prompts in chats, as OpenClaw's same-chat approvals: an approval a chat's run
 * asks for is shown in that chat, with the `/approve` line that answers it there (the owner's
 * command). `approvals.exec` sends it to other chats instead or as well (`mode`, `targets`,
 * `agentFilter`, `sessionFilter`). A prompt that cannot be delivered is logged; the request
 * still waits for an operator client or its timeout.
 */
export function execApprovalChatForwarder(deps: ExecApprovalChatDeps): (request: ExecApprovalRequest) => void {
  return (request) => {
    const channels = deps.channels();
    if (!channels) return;
    const origin = request.sessionKey && !request.promptedInChat ? sessionChatRoute(deps.store.get(request.sessionKey)) : undefined;
    const routes = promptRoutes(request, deps.config(), origin);
    routes.forEach((route, index) => {
      channels
        .send({ ...route, message: approvalPrompt(request), idempotencyKey: `exec-approval:${request.id}:${index}` })
        .catch((err: Error) =>
          deps.logger.warn({ approvalId: request.id, channel: route.channel, to: route.to, err: err.message }, "exec approval prompt not delivered to the chat"),
        );
    });
  };
}

/** The chats a request's prompt goes to: its own chat, and `approvals.exec`'s targets as its mode says. */
export function promptRoutes(request: Pick<ExecApprovalRequest, "agentId" | "sessionKey">, config: OpenClawConfig, origin: SessionChatRoute | undefined): SessionChatRoute[] {
  const forward = config.approvals?.exec;
  const own = origin ? [origin] : [];
  if (forward?.enabled !== true || !passesFilters(request, forward)) return own;
  const mode = forward.mode ?? "session";
  const targets =
    mode === "session"
      ? []
      : (forward.targets ?? []).map((t) => ({ channel: t.channel, to: t.to, ...(t.accountId ? { accountId: t.accountId } : {}), ...(t.threadId ? { threadId: t.threadId } : {}) }));
  const routes = mode === "targets" ? targets : [...own, ...targets];
  // The same chat named twice gets one prompt.
  const seen = new Set<string>();
  return routes.filter((route) => {
    const key = `${route.channel}|${route.accountId ?? ""}|${route.to}|${route.threadId ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function passesFilters(request: Pick<ExecApprovalRequest, "agentId" | "sessionKey">, forward: NonNullable<NonNullable<OpenClawConfig["approvals"]>["exec"]>): boolean {
  if (forward.agentFilter?.length && !forward.agentFilter.includes(request.agentId ?? "")) return false;
  if (forward.sessionFilter?.length) {
    const key = request.sessionKey ?? "";
    return forward.sessionFilter.some((filter) => {
      const regex = /^\/(.+)\/([a-z]*)$/.exec(filter);
      return regex ? new RegExp(regex[1]!, regex[2]).test(key) : key.includes(filter);
    });
  }
  return true;
}

/** What the chat reads: the command, why it needs approval, and the exact `/approve` lines. */
export function approvalPrompt(request: ExecApprovalRequest): string {
  const command = request.command.length > COMMAND_CHARS ? `${request.command.slice(0, COMMAND_CHARS)}…` : request.command;
  const minutes = Math.max(1, Math.round((request.expiresAtMs - request.createdAtMs) / 60_000));
  return [
    `🔐 Exec approval needed${request.agentId ? ` (agent ${request.agentId})` : ""}:`,
    `\`${command}\``,
    ...(request.cwd ? [`in ${request.cwd}`] : []),
    ...(request.reason ? [`Why: ${request.reason}`] : []),
    `Reply /approve ${request.id} allow-once | allow-always | deny (within ${minutes} min; then it is denied).`,
  ].join("\n");
}
