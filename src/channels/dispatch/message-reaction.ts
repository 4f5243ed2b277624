import { findAgentEntry } from "../../agents/agent-config.js";
import type { AgentEvent } from "../../agents/types.js";
import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import { StatusReactions } from "../outbound/status-reactions.js";
import type { ChannelAccount, OutboundTarget } from "../types.js";

/** The accepted message a reaction goes on, and what decides whether it gets one. */
export interface ReactedMessage {
  channel: string;
  target: OutboundTarget;
  messageId: string;
  agentId: string;
  chatType: string;
  wasMentioned: boolean;
  /** A room event gets the ack reaction only with scope `all`, and never a status reaction. */
  roomEvent?: boolean;
}

/**
 * The bot's reaction on a message it accepted for the agent: `messages.ackReaction`, else the
 * routed agent's `identity.emoji`, within `messages.ackReactionScope` (default `group-mentions`).
 * With `messages.statusReactions.enabled`, where the platform can move a reaction (Telegram replaces
 * it; Discord and Slack take it back), it then follows the run. Best effort: a platform that refuses
 * is logged, and the reply still comes. Undefined when the message gets no reaction.
 */
export function messageReaction(config: OpenClawConfig, account: ChannelAccount, message: ReactedMessage, logger: Logger): MessageReaction | undefined {
  const { ackReaction, ackReactionScope: scope = "group-mentions", statusReactions } = config.messages ?? {};
  const emoji = ackReaction || findAgentEntry(config, message.agentId)?.identity?.emoji;
  if (!emoji || !account.react) return undefined;
  const direct = message.chatType === "direct";
  const wanted = scope === "all" || (!message.roomEvent && (scope === "direct" ? direct : !direct && (scope === "group-all" || message.wasMentioned)));
  if (!wanted) return undefined;
  const warn = (what: string) => (err: Error) => logger.warn({ channel: message.channel, chatId: message.target.chatId, err: err.message }, what);
  const react = (reaction: string) => account.react!(message.target, message.messageId, reaction);
  if (statusReactions?.enabled !== true || message.roomEvent || (!account.reactionReplaces && !account.unreact)) {
    return { accepted: () => void react(emoji).catch(warn("ack reaction not set")) };
  }
  const status = new StatusReactions(
    {
      set: react,
      ...(account.unreact ? { remove: (reaction: string) => account.unreact!(message.target, message.messageId, reaction) } : {}),
      emojiFor: (key, wanted) => (account.statusEmoji ? account.statusEmoji(key, wanted) : wanted),
    },
    emoji,
    warn("status reaction not set"),
  );
  return {
    accepted: () => status.queued(),
    onEvent: (event) => followRun(status, event),
    ended: (ok) => void status.finish(ok),
  };
}

/** What the inbound pipeline tells a message's reaction: accepted, the run's events, its end. */
export interface MessageReaction {
  accepted(): void;
  onEvent?(event: AgentEvent): void;
  ended?(ok: boolean): void;
}

/** The run's progress as the status reaction shows it. */
function followRun(status: StatusReactions, event: AgentEvent): void {
  if (event.type === "message_start") status.thinking();
  else if (event.type === "tool_execution_start") status.tool(event.toolName);
  else if (event.type === "auto_compaction_start") status.compacting();
}
