import type { ConversationPort, SubmitInput } from "../../agents/conversation-port.js";
import { THINKING_LEVELS } from "../../agents/session-controls.js";
import { displayMessages } from "../../conversations/display-messages.js";
import { invalidRequest } from "../protocol/errors.js";

/** The optional `chat.send` fields that shape a turn, as a client sends them. */
export interface ChatSendFields {
  thinking?: string;
  timeoutMs?: number;
  deliver?: boolean;
  fastMode?: boolean | "auto";
  fastAutoOnSeconds?: number;
  originatingChannel?: string;
  originatingTo?: string;
  originatingAccountId?: string;
  originatingThreadId?: string;
  clarification?: unknown;
  replyToId?: string;
  suppressCommandInterpretation?: boolean;
  expectedLeafEntryId?: string;
}

export interface ChatSendOptions {
  turnSettings: NonNullable<SubmitInput["turnSettings"]>;
  /** The reply also goes to the chat the session last talked in (`deliver: true`). */
  deliver: boolean;
  /** The message is text for the agent even when it reads like a command. */
  suppressCommands: boolean;
}

/** Fields this gateway has no feature behind: a request carrying one is refused, never half-done. */
const UNSUPPORTED: readonly (keyof ChatSendFields)[] = [
  "fastAutoOnSeconds",
  "originatingChannel",
  "originatingTo",
  "originatingAccountId",
  "originatingThreadId",
  "clarification",
  "replyToId",
];

/**
 * Reads the turn-shaping fields of `chat.send` (see docs/protocol.md, "chat.send"): `thinking`
 * sets this turn's thinking level, `timeoutMs` bounds the run, `deliver: true` sends the reply to
 * the session's chat too, `suppressCommandInterpretation` (admin) keeps a `/text` for the agent,
 * `expectedLeafEntryId` refuses the message when the transcript moved on. A field with no feature
 * here is answered "not supported: <field>" before anything runs.
 */
export function readChatSendOptions(params: ChatSendFields, callerScopes: readonly string[]): ChatSendOptions {
  for (const field of UNSUPPORTED) {
    if (params[field] !== undefined) throw invalidRequest(`not supported: ${field} (this gateway has no such feature; send the message without it)`);
  }
  if (params.fastMode !== undefined && params.fastMode !== false)
    throw invalidRequest("not supported: fastMode (this gateway has no fast mode; send fastMode: false or leave it out)");
  const turnSettings: ChatSendOptions["turnSettings"] = {};
  if (params.thinking !== undefined) turnSettings.thinkingLevel = thinkingLevelOf(params.thinking);
  // Whole seconds, rounded up, so a short bound is never turned into "no bound" (0).
  if (params.timeoutMs !== undefined) turnSettings.timeoutSeconds = Math.ceil(params.timeoutMs / 1000);
  if (params.suppressCommandInterpretation === true && !callerScopes.includes("operator.admin")) {
    throw invalidRequest("suppressCommandInterpretation requires admin scope (operator.admin)");
  }
  return { turnSettings, deliver: params.deliver === true, suppressCommands: params.suppressCommandInterpretation === true };
}

/** A request's `thinking` field as the turn's thinking level; an unknown level is refused with the ones there are. */
export function thinkingLevelOf(thinking: string): string {
  const level = thinking.trim().toLowerCase();
  if (!(THINKING_LEVELS as readonly string[]).includes(level)) throw invalidRequest(`invalid thinking "${thinking}": use one of ${THINKING_LEVELS.join(", ")}`);
  return level;
}

/** `expectedLeafEntryId`: the message is for the transcript as the client last saw it; a newer entry refuses it. */
export function checkExpectedLeaf(conversations: ConversationPort, sessionKey: string, expected: string | undefined): void {
  if (expected === undefined) return;
  // The latest entry as chat.history shows it, which is where a client's ids come from.
  const [last] = displayMessages(conversations.displayHistory(sessionKey), { limit: 1, idOf: (m) => conversations.entryIdOf(m) });
  const leaf = (last?.__openclaw as { id?: string } | undefined)?.id;
  if (leaf !== expected) {
    throw invalidRequest(`the session changed: its latest entry is ${leaf ?? "none"}, not expectedLeafEntryId ${expected}; load chat.history again and resend`, {
      reason: "leaf-changed",
    });
  }
}
