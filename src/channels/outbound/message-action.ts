import type { ChannelMessageAction } from "../../agents/types.js";
import { ChannelSendRefused } from "../send-errors.js";
import type { ChannelAccount, OutboundTarget } from "../types.js";

/** What an action did, beyond which message it was done to. */
export type MessageActionOutcome = { added: string } | { removed: string } | Record<string, never>;

/**
 * One react, edit or delete on one message through the account that runs the chat. An operation
 * the platform's account lacks is refused by name (ChannelSendRefused), as is a removal it cannot
 * make: one emoji on a platform that only clears, or all of them on one that only takes back one.
 */
export async function runMessageAction(
  channel: string,
  account: ChannelAccount,
  target: OutboundTarget,
  messageId: string,
  action: ChannelMessageAction,
): Promise<MessageActionOutcome> {
  switch (action.action) {
    case "edit":
      if (!account.editMessage) throw new ChannelSendRefused(`${channel} cannot edit messages`);
      await account.editMessage(target, messageId, { markdown: action.message });
      return {};
    case "delete":
      if (!account.deleteMessage) throw new ChannelSendRefused(`${channel} cannot delete messages`);
      await account.deleteMessage(target, messageId);
      return {};
    case "react":
      return react(channel, account, target, messageId, action.emoji, action.remove === true);
  }
}

async function react(channel: string, account: ChannelAccount, target: OutboundTarget, messageId: string, emoji: string, remove: boolean): Promise<MessageActionOutcome> {
  if (!remove && emoji !== "") {
    if (!account.react) throw new ChannelSendRefused(`${channel} cannot add reactions`);
    await account.react(target, messageId, emoji);
    return { added: emoji };
  }
  // The bot holds one reaction per message here: taking back the named one is clearing it.
  if (account.clearReactions) {
    await account.clearReactions(target, messageId);
    return { removed: emoji };
  }
  if (emoji === "") throw new ChannelSendRefused(`${channel} takes back the bot's reactions one emoji at a time: name the emoji with remove: true`);
  if (!account.unreact) throw new ChannelSendRefused(`${channel} cannot take back reactions`);
  await account.unreact(target, messageId, emoji);
  return { removed: emoji };
}
