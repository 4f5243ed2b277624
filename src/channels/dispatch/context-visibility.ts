import type { OpenClawConfig } from "../../config/index.js";
import type { FinalizedInbound } from "../inbound/finalize-inbound.js";

/** Which supplemental context (group history, quoted messages) reaches the agent. */
export type ContextVisibility = "all" | "allowlist" | "allowlist_quote";

/** `contextVisibility`: the account's (or its channel's), else `channels.defaults`', else `all`. */
export function contextVisibilityFor(config: OpenClawConfig, account: Readonly<Record<string, unknown>>): ContextVisibility {
  return (account.contextVisibility as ContextVisibility | undefined) ?? config.channels?.defaults?.contextVisibility ?? "all";
}

/**
 * Under `contextVisibility: allowlist` the text of a quoted message reaches the agent only when
 * its author is on the chat's sender list (or is the bot); an unknown author counts as not on it.
 * `all` and `allowlist_quote` keep the quote, which the person chose to answer.
 */
export function withVisibleQuote(message: FinalizedInbound, visibility: ContextVisibility, allowlisted: (senderId: string) => boolean): FinalizedInbound {
  const quote = message.replyTo;
  if (visibility !== "allowlist" || !quote?.body || message.replyToBot) return message;
  if (quote.senderId !== undefined && allowlisted(quote.senderId)) return message;
  const { body: _hidden, ...withoutBody } = quote;
  return { ...message, replyTo: withoutBody };
}
