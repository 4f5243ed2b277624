/** Slack accepts answers on a `response_url` for 30 minutes (at most five). */
const RESPONSE_URL_MS = 30 * 60_000;
const MAX_RESPONSES = 5;

export type ResponseType = "ephemeral" | "in_channel";
export type Respond = (message: { text: string; response_type: ResponseType; replace_original?: boolean }) => Promise<unknown>;

interface Pending {
  respond: Respond;
  responseType: ResponseType;
  receivedAt: number;
  answered: number;
}

/** Inbound ids of what is answered on a `response_url` (a slash command, a button press). */
const REPLY_ID = /^(slash|action):/;

/** Whether `messageId` names a slash command or a button press: no message of its own, so nothing can be answered in its thread. */
export function isResponseUrlReplyId(messageId: string | undefined): boolean {
  return messageId !== undefined && REPLY_ID.test(messageId);
}

/**
 * What waits for its answer on a `response_url`, keyed by the inbound message id it was given:
 * the reply to that message goes there, as `responseType` says, while Slack takes it.
 */
export class ResponseUrlReplies {
  readonly #pending = new Map<string, Pending>();

  remember(messageId: string, respond: Respond, responseType: ResponseType): void {
    const now = Date.now();
    for (const [id, pending] of this.#pending) if (now - pending.receivedAt >= RESPONSE_URL_MS) this.#pending.delete(id);
    this.#pending.set(messageId, { respond, responseType, receivedAt: now, answered: 0 });
  }

  /** Answers what `messageId` names, if it still can be; false sends the text the ordinary way. */
  async answer(messageId: string | undefined, mrkdwn: string): Promise<string | false> {
    const pending = messageId === undefined ? undefined : this.#pending.get(messageId);
    if (!pending || Date.now() - pending.receivedAt >= RESPONSE_URL_MS || pending.answered >= MAX_RESPONSES) return false;
    pending.answered++;
    await pending.respond({ text: mrkdwn, response_type: pending.responseType, replace_original: false });
    return `${messageId}:${pending.answered}`;
  }
}
