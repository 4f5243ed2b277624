import type { ThreadHistoryMessage } from "../../src/channels/types.js";
import type { Logger } from "../../src/infra/logger.js";
import { describeSlackError, slackErrorCode } from "./api-errors.js";
import type { SlackDirectory } from "./directory.js";
import type { SlackWebClient } from "./slack-sdk.js";

/** Messages asked for per `conversations.replies` page (Slack's maximum is 1000; it advises 200). */
const PAGE_SIZE = 200;
/** Pages read at most: a thread longer than this is read from its start this far, and its latest messages kept. */
const MAX_PAGES = 5;
/** How long a sender's name may take (`users.info`) before the line goes without it. */
const NAME_TIMEOUT_MS = 2_000;
/** Slack answers these when the app may not read the conversation: the message goes on without history. */
const REFUSALS = new Set(["missing_scope", "not_in_channel", "channel_not_found", "no_permission"]);

interface ReplyMessage {
  ts?: string;
  user?: string;
  bot_id?: string;
  username?: string;
  bot_profile?: { name?: string };
  text?: string;
  subtype?: string;
}

export interface SlackThreadHistoryDeps {
  api: SlackWebClient;
  directory: SlackDirectory;
  logger: Logger;
  secrets: readonly string[];
}

/**
 * A thread's earlier messages through `conversations.replies` (channel + the root's ts; the root is
 * part of the answer): those before `beforeTs`, the latest `limit` of them, oldest first, the bot's
 * own posts included. Names come from the directory, each waited for at most `NAME_TIMEOUT_MS`.
 * Reading needs `channels:history` (public channels), `groups:history` (private ones), `im:history` /
 * `mpim:history` (DMs): a refusal is logged naming the scope, and no history is returned.
 */
export async function readThreadHistory(deps: SlackThreadHistoryDeps, channel: string, threadTs: string, limit: number, beforeTs: string): Promise<ThreadHistoryMessage[]> {
  const earlier: ReplyMessage[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await deps.api.conversations.replies({ channel, ts: threadTs, latest: beforeTs, inclusive: false, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
      for (const m of (result.messages ?? []) as ReplyMessage[]) if (m.ts && compareTs(m.ts, beforeTs) < 0 && isConversation(m)) earlier.push(m);
      cursor = result.response_metadata?.next_cursor || undefined;
      if (!cursor || !result.has_more) break;
    }
  } catch (error) {
    const code = slackErrorCode(error);
    const why = describeSlackError("conversations.replies", error, deps.secrets);
    const scope = neededScope(error, channel);
    const hint = code && REFUSALS.has(code) ? `; reading a thread needs the ${scope} scope and the bot in the conversation` : "";
    deps.logger.warn({ chatId: channel, threadId: threadTs }, `${why}${hint}; the message goes on without thread history`);
    return [];
  }
  const latest = earlier.sort((a, b) => compareTs(a.ts!, b.ts!)).slice(-limit);
  return Promise.all(latest.map((m) => toHistoryMessage(m, deps.directory)));
}

/** Ordinary messages (and bot posts); joins, topic changes and other events are not the conversation. */
function isConversation(m: ReplyMessage): boolean {
  return (
    (m.subtype === undefined || m.subtype === "bot_message" || m.subtype === "thread_broadcast" || m.subtype === "file_share") && (m.user !== undefined || m.bot_id !== undefined)
  );
}

async function toHistoryMessage(m: ReplyMessage, directory: SlackDirectory): Promise<ThreadHistoryMessage> {
  const senderId = m.user ?? m.bot_id!;
  const profile = m.user ? await withinTime(directory.profile(m.user), NAME_TIMEOUT_MS) : undefined;
  const senderName = profile?.name ?? m.bot_profile?.name ?? m.username;
  const isBot = m.bot_id !== undefined || profile?.isBot === true;
  return { messageId: m.ts!, senderId, text: m.text ?? "", ...(senderName ? { senderName } : {}), ...(isBot ? { isBot } : {}) };
}

/** The scope Slack says it needs (`needed`), else the one this kind of conversation needs. */
function neededScope(error: unknown, channel: string): string {
  const needed = (error as { data?: { needed?: string } } | undefined)?.data?.needed;
  if (needed) return needed;
  if (channel.startsWith("D")) return "im:history";
  if (channel.startsWith("G")) return "groups:history (mpim:history for a group DM)";
  return "channels:history (groups:history in a private channel)";
}

function withinTime<T>(value: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([value, timeout]).finally(() => clearTimeout(timer));
}

/** Slack ts values (`<seconds>.<micro>`) in time order. */
function compareTs(a: string, b: string): number {
  const [as = "0", af = ""] = a.split(".");
  const [bs = "0", bf = ""] = b.split(".");
  return Number(as) - Number(bs) || Number(af.padEnd(6, "0")) - Number(bf.padEnd(6, "0"));
}
