import { TOOL_ERRORS, type ToolRefusal } from "../tool-errors.js";
import { randomUUID } from "node:crypto";
import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import { buildMainSessionKey, normalizeSessionKey, SessionKeyError } from "../../sessions/keys/index.js";
import type { SessionStore } from "../../sessions/store/index.js";
import type { AgentConversations, ConversationRun } from "../conversation-port.js";
import { runReplyText } from "../conversation-port.js";
import type { SpawnRefusal } from "../subagents/spawn-checks.js";
import { maxPingPongTurns } from "../subagents/subagent-config.js";
import type { SessionsSendArgs, SessionToolCaller } from "../tools/index.js";
import { checkSessionVisible, type VisibilityContext } from "./session-visibility.js";

export type SendOutcome =
  | { status: "accepted" | "timeout"; runId: string; sessionKey: string; note: string }
  | { status: "ok" | "no_reply"; runId: string; sessionKey: string; reply: string }
  | ({ status: "refused" } & SpawnRefusal);

/** One inter-session message's turn: who sent it to whom, in which exchange, at which hop. */
interface ExchangeTurn {
  exchangeId: string;
  /** 1 = the message sessions_send sent; 2.. = the automatic replies back and forth. */
  hop: number;
  from: string;
  to: string;
  /** The privileges the chain started with; every reply in it runs with no more. */
  senderIsOwner: boolean;
  /**
   * The turn answering this message already sent its reply to `from` itself with
   * sessions_send (didSendViaMessagingTool): its final text must not be sent a second time.
   */
  sentViaTool?: boolean;
}

export interface AgentToAgentDeps {
  config: () => OpenClawConfig;
  store: SessionStore;
  conversations: AgentConversations;
  visibility: VisibilityContext["spawnedBy"];
  /** True when `target` is a sub-agent `caller` spawned: its results come back by announcement, not by reply-back. */
  isOwnChild(caller: string, target: string): boolean;
  logger: Logger;
}

const SKIP_REPLIES = new Set(["REPLY_SKIP", "NO_REPLY", "ANNOUNCE_SKIP"]);

/**
 * `sessions_send` and its reply-back loop (see docs/subagents.md, "Agent to agent"). A message to
 * another session runs there as its own turn, marked as inter-session. A waited send returns the
 * reply as the tool result and stops there (it was delivered). Otherwise the reply goes back to the
 * sender as a message, whose reply goes back again — at most
 * `session.agentToAgent.maxPingPongTurns` times (5), or until a side answers REPLY_SKIP. Every
 * message carries its exchange and hop, and a send made from a turn that an inter-session message
 * started continues that chain's count, so no pair or ring of sessions can echo for ever.
 */
export class AgentToAgent {
  private readonly turns = new Map<string, ExchangeTurn>();

  constructor(private readonly deps: AgentToAgentDeps) {}

  async send(caller: SessionToolCaller, args: SessionsSendArgs, signal: AbortSignal): Promise<SendOutcome> {
    const config = this.deps.config();
    const target = this.resolveTarget(caller, args, config);
    if (typeof target !== "string") return { status: "refused", ...target };
    if (target === caller.sessionKey) return refuse(TOOL_ERRORS.sendToSelf());
    const current = this.currentTurn(caller.sessionKey);
    // The session whose message started this turn may always be answered.
    const replying = current?.from === target;
    const hidden = replying ? undefined : checkSessionVisible({ config, spawnedBy: this.deps.visibility }, caller.sessionKey, target);
    if (hidden) return { status: "refused", ...hidden };
    if (!this.deps.store.get(target) && !args.agentId) return refuse(TOOL_ERRORS.sessionNotFound(target));
    const message = args.message.trim();
    if (!message) return refuse(TOOL_ERRORS.sendMessageEmpty());

    const limit = maxPingPongTurns(config) + 1;
    const exchangeId = replying && current ? current.exchangeId : randomUUID();
    const hop = (current?.hop ?? 0) + 1;
    if (hop > limit) {
      return refuse(TOOL_ERRORS.exchangeLimit(limit));
    }
    const outcome = await this.deps.conversations.submit({
      sessionKey: target,
      idempotencyKey: `a2a:${exchangeId}:${hop}`,
      message: `[Inter-session message from ${caller.sessionKey} via sessions_send · isUser=false]\n${message}\n\n(Your final reply goes back to that session. Reply REPLY_SKIP to send nothing back.)`,
      method: "agent",
      internal: {},
      provenance: {
        kind: "inter_session",
        sourceSessionKey: caller.sessionKey,
        originSessionId: this.deps.store.get(caller.sessionKey)?.sessionId,
        sourceTool: "sessions_send",
        exchangeId,
        hop,
      },
      senderIsOwner: caller.senderIsOwner,
    });
    if (outcome.kind !== "accepted") return refuse(TOOL_ERRORS.sendNotAccepted(outcome.kind === "rejected" ? outcome.notice : outcome.kind));
    // Answering the session that messaged this turn: that answer is this send, not the turn's final text.
    if (replying && current) current.sentViaTool = true;
    const run = outcome.run;
    const replyBack = !this.deps.isOwnChild(caller.sessionKey, target);
    this.turns.set(run.runId, { exchangeId, hop, from: caller.sessionKey, to: target, senderIsOwner: caller.senderIsOwner });

    const waitMs = (args.timeoutSeconds ?? 0) * 1000;
    if (waitMs > 0) {
      const ended = await waitForRun(run, waitMs, signal);
      if (ended) {
        // The reply reached the sender here, as the tool result: it is not sent back again.
        this.turns.delete(run.runId);
        const reply = runReplyText(ended);
        return { status: reply ? "ok" : "no_reply", runId: run.runId, sessionKey: target, reply };
      }
    }
    if (replyBack) this.watch(run);
    else this.turns.delete(run.runId);
    const note = replyBack
      ? "Its reply comes back to you as a message; do not poll for it."
      : "That is your own sub-agent: its reply is not sent back (wait with timeoutSeconds, or steer it with subagents).";
    return { status: waitMs > 0 ? "timeout" : "accepted", runId: run.runId, sessionKey: target, note };
  }

  private resolveTarget(caller: SessionToolCaller, args: SessionsSendArgs, config: OpenClawConfig): string | SpawnRefusal {
    try {
      if (args.sessionKey?.trim()) return normalizeSessionKey(args.sessionKey, caller.agentId, { mainKey: config.session.mainKey });
      if (args.agentId?.trim()) return buildMainSessionKey(args.agentId, config.session.mainKey);
    } catch (err) {
      if (err instanceof SessionKeyError) return TOOL_ERRORS.sessionKeyInvalid(err.message);
      throw err;
    }
    const label = args.label?.trim().toLowerCase();
    if (!label) return TOOL_ERRORS.sendTargetMissing();
    const matches = this.deps.store.list().filter((e) => e.label?.toLowerCase() === label && e.sessionKey !== caller.sessionKey);
    const visible = matches.filter((e) => !checkSessionVisible({ config, spawnedBy: this.deps.visibility }, caller.sessionKey, e.sessionKey));
    if (visible.length === 1) return visible[0]!.sessionKey;
    if (visible.length === 0) return TOOL_ERRORS.labelNotFound(String(args.label));
    return TOOL_ERRORS.labelAmbiguous(String(args.label), visible.map((e) => e.sessionKey).join(", "));
  }

  /** The exchange turn the caller's session is running right now, if an inter-session message started it. */
  private currentTurn(sessionKey: string): ExchangeTurn | undefined {
    for (const run of this.deps.conversations.runs.activeFor(sessionKey)) {
      if (run.status !== "running") continue;
      const turn = this.turns.get(run.runId);
      if (turn) return turn;
    }
    return undefined;
  }

  private watch(run: ConversationRun): void {
    void run.done.then((ended) => this.replyBack(ended)).catch((err) => this.deps.logger.warn({ err: (err as Error).message }, "agent-to-agent reply not sent back"));
  }

  /** A turn that answered an inter-session message ended: send its reply back, unless the exchange is over. */
  private async replyBack(run: ConversationRun): Promise<void> {
    const turn = this.turns.get(run.runId);
    this.turns.delete(run.runId);
    if (!turn || turn.sentViaTool || run.status !== "ok") return;
    const reply = runReplyText(run);
    const limit = maxPingPongTurns(this.deps.config()) + 1;
    if (!reply || SKIP_REPLIES.has(reply.toUpperCase()) || turn.hop >= limit || !this.deps.store.get(turn.from)) return;
    const hop = turn.hop + 1;
    const outcome = await this.deps.conversations.submit({
      sessionKey: turn.from,
      idempotencyKey: `a2a:${turn.exchangeId}:${hop}`,
      message: `[Inter-session reply from ${turn.to} · reply ${hop - 1} of ${limit - 1} · isUser=false]\n${reply}\n\n(Your final reply goes back to that session. Reply REPLY_SKIP to end the exchange.)`,
      method: "agent",
      internal: {},
      provenance: { kind: "inter_session", sourceSessionKey: turn.to, sourceTool: "sessions_send", exchangeId: turn.exchangeId, hop },
      senderIsOwner: turn.senderIsOwner,
    });
    if (outcome.kind !== "accepted") return;
    this.turns.set(outcome.run.runId, { exchangeId: turn.exchangeId, hop, from: turn.to, to: turn.from, senderIsOwner: turn.senderIsOwner });
    this.watch(outcome.run);
  }
}

/** The run once it ended, or undefined after `ms` or when the caller's turn is aborted. */
function waitForRun(run: ConversationRun, ms: number, signal: AbortSignal): Promise<ConversationRun | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(undefined), ms);
    const onAbort = () => finish(undefined);
    const finish = (value: ConversationRun | undefined) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    void run.done.then(finish);
  });
}

function refuse(refusal: ToolRefusal): SendOutcome {
  return { status: "refused", ...refusal };
}
