import type { Api } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "../../src/infra/logger.js";
import { grammySignal } from "./api-client.js";
import { ALLOWED_UPDATES } from "./inbound.js";

/**
 * Which account polls with which token, process-wide. Telegram allows one `getUpdates` per bot
 * at a time and answers a second poller with 409 Conflict, so two accounts on one token would
 * knock each other off forever; the second one is refused at start instead. A claim belongs to
 * the account object that made it: an account restarted under the same id takes the claim over,
 * and the one it replaced, should its stop end later, cannot free it.
 */
const pollingAccounts = new Map<string, { accountId: string; owner: object }>();

export function claimPollingToken(token: string, accountId: string, owner: object): void {
  const holder = pollingAccounts.get(token);
  if (holder !== undefined && holder.accountId !== accountId) {
    throw new Error(
      `channels.telegram: account "${accountId}" uses the same bot token as account "${holder.accountId}", which already polls in this process (Telegram allows one poller per bot)`,
    );
  }
  pollingAccounts.set(token, { accountId, owner });
}

export function releasePollingToken(token: string, owner: object): void {
  if (pollingAccounts.get(token)?.owner === owner) pollingAccounts.delete(token);
}

export interface UpdatePollerDeps {
  api: Api;
  timeoutSeconds: number;
  logger: Logger;
  /** Resolves once the gateway recorded the update (`onInbound`). */
  handleUpdate(update: Update): Promise<void>;
}

/**
 * Long polling with an at-least-once guarantee. Telegram forgets updates only when a later
 * `getUpdates` carries `offset` above them, and the offset here moves past an update only after
 * `handleUpdate` resolved for it: if the process dies mid-batch, Telegram hands the batch out
 * again and the gateway's dedupe absorbs what was already recorded. Written here rather than
 * with grammY's `bot.start()` or runner, so that this offset rule (and chats handled side by
 * side, each in order) is a guarantee of this file, not a detail of a library's polling loop.
 */
export class UpdatePoller {
  /** Kept across stop/start of the account, so a restart does not re-fetch handled updates. */
  private offset: number | undefined;

  constructor(private readonly deps: UpdatePollerDeps) {}

  /**
   * One `getUpdates` and its batch. Throws what `getUpdates` throws (the caller backs off).
   * Chats are handled side by side (their records share fsyncs), each chat's updates in order;
   * the offset moves past the batch only once every update of it was handled.
   */
  async pollOnce(signal: AbortSignal, onAnswered: () => void): Promise<void> {
    const updates = await this.deps.api.getUpdates({ offset: this.offset, timeout: this.deps.timeoutSeconds, allowed_updates: [...ALLOWED_UPDATES] }, grammySignal(signal));
    onAnswered();
    const byChat = new Map<string, Update[]>();
    for (const update of updates) {
      const chat = chatOf(update);
      const list = byChat.get(chat);
      if (list) list.push(update);
      else byChat.set(chat, [update]);
    }
    const handled = await Promise.all([...byChat.values()].map((chatUpdates) => this.handleInOrder(chatUpdates, signal)));
    // Stopping mid-batch leaves the batch unconfirmed; Telegram hands it out again next time.
    if (handled.every(Boolean) && updates.length > 0) {
      this.offset = Math.max(this.offset ?? 0, updates[updates.length - 1]!.update_id + 1);
    }
  }

  private async handleInOrder(updates: Update[], signal: AbortSignal): Promise<boolean> {
    for (const update of updates) {
      if (signal.aborted) return false;
      try {
        await this.deps.handleUpdate(update);
      } catch (error) {
        // A poison update must not block the chat forever, so a handler that throws is logged
        // and the offset still moves past the update: that one update is lost. Only a crash
        // (no throw, no offset) gets the redelivery.
        this.deps.logger.error({ err: error, updateId: update.update_id }, "telegram: update could not be handed to the gateway; skipping it");
      }
    }
    return true;
  }
}

/** The chat an update belongs to: updates of one chat keep their order. */
function chatOf(update: Update): string {
  const chat = update.message?.chat ?? update.edited_message?.chat ?? update.callback_query?.message?.chat ?? update.channel_post?.chat ?? update.message_reaction?.chat;
  return chat ? String(chat.id) : `update:${update.update_id}`;
}
