/** The chat senders whose message started a run: `channel:senderId` keys (a merged burst has several), and the last one's name. */
export interface ChatSenders {
  senders: readonly string[];
  name?: string;
}

/** One who replies in a chat: their `channel:senderId`, the kind of chat, and whether they are one of the assistant's owners. */
export interface ChatReplier {
  key: string;
  chatType: string;
  owner: boolean;
}

/**
 * Who may answer an ask_user question from a chat (an operator client always may). The run's
 * question is for whoever asked for the run: when chat messages started it, only their senders
 * answer, so another member of a group cannot choose for them. A run no chat message started
 * (the Control UI, a sub-agent's report) is answered in a group only by the assistant's owners,
 * and in a direct chat by its person.
 */
export function mayAnswerInChat(askers: ChatSenders | undefined, replier: ChatReplier): boolean {
  if (askers) return askers.senders.includes(replier.key);
  return replier.chatType === "direct" || replier.owner;
}

/** What one who may not answer is told. */
export function notYourQuestion(askers: ChatSenders | undefined): string {
  if (!askers) return "This question is for the assistant's owners: only they can answer it in this chat.";
  return `This question is for ${askers.name ?? "whoever asked for this run"}: only they can answer it.`;
}

/** Who answers through `/answer`: one replying in a chat, or an operator client (named by how it sent the command). */
export type QuestionReplier = { chat: ChatReplier; operator?: undefined } | { operator: string; chat?: undefined };
