import { LRUCache } from "lru-cache";
import type { ApprovalDecision, ApprovalResolution, ExecApprovalRequest } from "../agents/approvals/approval-broker.js";
import type { ChannelManager, SentChatMessage } from "../channels/channel-manager.js";
import type { ChatButton } from "../channels/types.js";
import { defaultAccountId } from "../channels/config/channel-accounts.js";
import { approverDmTarget, execApprovalClient, isApprovalClientChannel } from "../channels/config/channel-exec-approvals.js";
import { chatButtonsAllowed } from "../channels/config/chat-buttons.js";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import type { SessionStore } from "../sessions/store/index.js";
import { sessionChatRoute, type SessionChatRoute } from "./session-chat-route.js";

const COMMAND_CHARS = 300;

/** What posting the gateway's own questions (exec approvals, ask_user) into sessions' chats needs. */
export interface ChatPromptDeps {
  config: () => OpenClawConfig;
  channels: () => ChannelManager | undefined;
  store: SessionStore;
  logger: Logger;
}

/**
 * Exec approval prompts in chats, as OpenClaw's same-chat approvals: an approval a chat's run
 * asks for is shown in that chat, with the `/approve` line that answers it there (the owner's
 * command). `approvals.exec` sends it to other chats instead or as well (`mode`, `targets`,
 * `agentFilter`, `sessionFilter`). Where the platform has buttons (Telegram, Discord, Slack), the prompt
 * gets one per decision, each sending its `/approve` line. Once the request is answered (anywhere)
 * or expires, each prompt is edited to say how it ended, its buttons gone (an approver's DM prompt
 * is deleted instead where the account's `execApprovals.cleanupAfterResolve` says so). A prompt
 * that cannot be delivered is logged; when none of its chats took it, the run's own chat gets a
 * notice with the `/approve` line (not the command). The request still waits for an operator
 * client or its timeout.
 */
export class ExecApprovalChats {
  /** The prompts posted for each pending request: edited when it ends. */
  private readonly posted = new Map<string, PostedPrompt[]>();
  /** How recent requests ended, for a prompt whose delivery finishes after its request did. */
  private readonly ended = new LRUCache<string, { decision: ApprovalDecision | null }>({ max: 200 });

  constructor(private readonly deps: ChatPromptDeps) {}

  prompt(request: ExecApprovalRequest): void {
    const channels = this.deps.channels();
    if (!channels) return;
    const origin = request.sessionKey && !request.promptedInChat ? sessionChatRoute(this.deps.store.get(request.sessionKey)) : undefined;
    const routes = promptRoutes(request, this.deps.config(), origin);
    const deliveries = routes.map((route, index) => this.post(channels, request, route, `exec-approval:${request.id}:${index}`, "question"));
    if (!origin || routes.length === 0 || routes.some((route) => sameChat(route, origin))) return;
    // As OpenClaw: a question that reached none of its chats (an approver's DMs closed, say) leaves
    // a notice in the run's own chat, without the command, so the request can still be answered.
    void Promise.all(deliveries).then((delivered) => {
      if (delivered.some(Boolean) || this.ended.has(request.id)) return;
      this.deps.logger.warn({ approvalId: request.id, channel: origin.channel, to: origin.to }, "exec approval prompt reached none of its chats: a notice goes to the run's chat");
      void this.post(channels, request, origin, `exec-approval:${request.id}:fallback`, "notice");
    });
  }

  /**
   * Posts a request's question (or the command-less notice) to one chat, buttons under it, and
   * remembers it for the outcome; resolves whether the chat took it. Failures are logged.
   */
  private async post(
    channels: ChannelManager,
    request: ExecApprovalRequest,
    { cleanupAfterResolve, ...route }: PromptRoute,
    idempotencyKey: string,
    kind: PromptKind,
  ): Promise<boolean> {
    const text = kind === "question" ? approvalPrompt(request) : approvalNotice(request);
    let result: Awaited<ReturnType<ChannelManager["send"]>>;
    try {
      result = await channels.send({ ...route, message: text, idempotencyKey });
    } catch (err) {
      this.deps.logger.warn({ approvalId: request.id, channel: route.channel, to: route.to, err: (err as Error).message }, "exec approval prompt not delivered to the chat");
      return false;
    }
    const posted = onlyMessageOf(result, route);
    if (!posted) return true;
    const sent: PostedPrompt = { ...posted, kind, ...(cleanupAfterResolve ? { deleteWhenEnded: true as const } : {}) };
    try {
      if (!this.ended.has(request.id)) {
        this.posted.set(request.id, [...(this.posted.get(request.id) ?? []), sent]);
        if (chatButtonsAllowed(this.deps.config(), sent)) await channels.attachButtons(sent, decisionButtons(request.id), text);
      }
      // Answered while it was being posted or buttoned: it says so now, without buttons.
      const ended = this.ended.get(request.id);
      if (ended) await endPrompt(channels, sent, endedText(sent.kind, request, ended.decision));
    } catch (err) {
      this.deps.logger.warn(
        { approvalId: request.id, channel: route.channel, to: route.to, err: (err as Error).message },
        "exec approval prompt posted, but its buttons or outcome not set",
      );
    }
    return true;
  }

  /** The request ended: each of its prompts says how, and loses its buttons. */
  resolved(resolution: ApprovalResolution, request: ExecApprovalRequest): void {
    this.ended.set(request.id, { decision: resolution.decision });
    const posted = this.posted.get(request.id);
    this.posted.delete(request.id);
    const channels = this.deps.channels();
    if (!posted || !channels) return;
    for (const sent of posted) {
      endPrompt(channels, sent, endedText(sent.kind, request, resolution.decision)).catch((err: Error) =>
        this.deps.logger.warn({ approvalId: request.id, channel: sent.channel, err: err.message }, "exec approval prompt not updated with its outcome"),
      );
    }
  }
}

/**
 * The message a prompt went out as, to button and edit later; undefined for a prompt cut into
 * chunks, which keeps its text as sent.
 */
export function onlyMessageOf(result: Awaited<ReturnType<ChannelManager["send"]>>, route: { threadId?: string }): SentChatMessage | undefined {
  if (result.messageIds.length !== 1) return undefined;
  return {
    channel: result.channel,
    accountId: result.accountId,
    chatId: result.chatId,
    ...(route.threadId ? { threadId: route.threadId } : {}),
    messageId: result.messageIds[0]!,
  };
}

/** The question (the command and how to answer), or the notice left in the run's chat when no chat took the question (how to answer only). */
type PromptKind = "question" | "notice";

/** A prompt as posted; `deleteWhenEnded`: an approver's DM whose account cleans up after the request ends. */
type PostedPrompt = SentChatMessage & { kind: PromptKind; deleteWhenEnded?: true };

function endedText(kind: PromptKind, request: ExecApprovalRequest, decision: ApprovalDecision | null): string {
  return kind === "question" ? resolvedPrompt(request, decision) : resolvedNotice(request, decision);
}

function sameChat(a: SessionChatRoute, b: SessionChatRoute): boolean {
  return (
    a.channel === b.channel && a.to === b.to && (a.threadId ?? "") === (b.threadId ?? "") && (a.accountId === undefined || b.accountId === undefined || a.accountId === b.accountId)
  );
}

/** A prompt whose request ended says how, or goes where its account cleans up (falling back to the edit where it cannot be deleted). */
async function endPrompt(channels: ChannelManager, sent: PostedPrompt, text: string): Promise<void> {
  if (sent.deleteWhenEnded && (await channels.deleteSent(sent))) return;
  await channels.editSent(sent, text);
}

/** A route to a chat, marked where its prompt is to be deleted once the request ends. */
export type PromptRoute = SessionChatRoute & { cleanupAfterResolve?: true };

const DECISION_BUTTONS: readonly [ApprovalDecision, string, NonNullable<ChatButton["style"]>][] = [
  ["allow-once", "Allow once", "success"],
  ["allow-always", "Allow always", "primary"],
  ["deny", "Deny", "danger"],
];

/** One button per decision, each sending the `/approve` line the prompt shows (none when one would not fit Telegram's 64 bytes). */
export function decisionButtons(approvalId: string): ChatButton[][] {
  const buttons = DECISION_BUTTONS.map(([decision, label, style]) => ({ label, data: `/approve ${approvalId} ${decision}`, style }));
  return buttons.every((button) => Buffer.byteLength(button.data) <= 64) ? [buttons] : [];
}

/**
 * The chats a request's prompt goes to: its own chat (on Telegram, Discord and Slack, as the account's
 * `execApprovals` says: its approvers' DMs, the chat, or both), and `approvals.exec`'s targets as
 * its mode says.
 */
export function promptRoutes(request: Pick<ExecApprovalRequest, "agentId" | "sessionKey">, config: OpenClawConfig, origin: SessionChatRoute | undefined): PromptRoute[] {
  const forward = config.approvals?.exec;
  const own = origin ? ownChatRoutes(request, config, origin) : [];
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

/** A chat whose account has an approval client (Telegram, Discord, Slack) asks as its `target` says; any other chat is asked itself. */
function ownChatRoutes(request: Pick<ExecApprovalRequest, "agentId" | "sessionKey">, config: OpenClawConfig, origin: SessionChatRoute): PromptRoute[] {
  const channel = origin.channel;
  if (!isApprovalClientChannel(channel)) return [origin];
  const accountId = origin.accountId ?? defaultAccountId(config, channel);
  const client = accountId ? execApprovalClient(config, channel, accountId) : undefined;
  if (!client || !passesFilters(request, client)) return [origin];
  const dms: PromptRoute[] = client.approvers.map((id) => ({
    channel,
    accountId: client.accountId,
    to: approverDmTarget(client, id),
    ...(client.cleanupAfterResolve ? { cleanupAfterResolve: true as const } : {}),
  }));
  const chat = { ...origin, accountId: client.accountId };
  return client.target === "dm" ? dms : client.target === "channel" ? [chat] : [chat, ...dms];
}

function passesFilters(request: Pick<ExecApprovalRequest, "agentId" | "sessionKey">, forward: { agentFilter?: string[]; sessionFilter?: string[] }): boolean {
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
  const minutes = Math.max(1, Math.round((request.expiresAtMs - request.createdAtMs) / 60_000));
  return [...requestLines(request), `Reply /approve ${request.id} allow-once | allow-always | deny (within ${minutes} min; then it is denied).`].join("\n");
}

/** The notice for the run's chat when the question reached none of its chats: how to answer, not the command. */
function approvalNotice(request: ExecApprovalRequest): string {
  const minutes = Math.max(1, Math.round((request.expiresAtMs - request.createdAtMs) / 60_000));
  return [
    `🔐 An exec approval${request.agentId ? ` (agent ${request.agentId})` : ""} is waiting, and its question reached none of the approvers' chats.`,
    `Reply /approve ${request.id} allow-once | allow-always | deny (within ${minutes} min; then it is denied).`,
  ].join("\n");
}

/** The notice once the request ended. */
function resolvedNotice(request: ExecApprovalRequest, decision: ApprovalDecision | null): string {
  return [`🔐 Exec approval ${request.id}${request.agentId ? ` (agent ${request.agentId})` : ""}:`, decision ? OUTCOMES[decision] : "⌛ No answer in time: not run."].join("\n");
}

const OUTCOMES: Record<ApprovalDecision, string> = { "allow-once": "✅ Allowed once.", "allow-always": "✅ Allowed always.", deny: "❌ Denied." };

/** The prompt once the request ended: what was asked, and how it ended instead of how to answer. */
export function resolvedPrompt(request: ExecApprovalRequest, decision: ApprovalDecision | null): string {
  return [...requestLines(request), decision ? OUTCOMES[decision] : "⌛ No answer in time: not run."].join("\n");
}

function requestLines(request: ExecApprovalRequest): string[] {
  const command = request.command.length > COMMAND_CHARS ? `${request.command.slice(0, COMMAND_CHARS)}…` : request.command;
  return [
    `🔐 Exec approval needed${request.agentId ? ` (agent ${request.agentId})` : ""}:`,
    `\`${command}\``,
    ...(request.cwd ? [`in ${request.cwd}`] : []),
    ...(request.reason ? [`Why: ${request.reason}`] : []),
  ];
}
