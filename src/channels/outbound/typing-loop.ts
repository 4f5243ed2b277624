import type { ChannelAccount, OutboundTarget } from "../types.js";

/**
 * Keep the "typing…" indicator alive while a run is active: platforms drop it after ~5-10 s,
 * so it is refreshed every `intervalMs`. Failures are ignored (typing is a courtesy, never a
 * reason to fail a reply). Returns the function that stops it.
 */
export function startTypingLoop(account: ChannelAccount, target: OutboundTarget, intervalMs: number): () => void {
  if (!account.sendTyping || intervalMs <= 0) return () => {};
  const send = () => void account.sendTyping!(target).catch(() => {});
  send();
  const timer = setInterval(send, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Slack's `typingReaction`: the bot's reaction on the message it is answering, for as long as the
 * reply is being written (a bot has no typing indicator there). Best effort both ways: a refusal
 * is logged and the reply still comes. Returns the function that takes it back.
 */
export function startTypingReaction(account: ChannelAccount, target: OutboundTarget, messageId: string, emoji: string, warn: (what: string, err: Error) => void): () => void {
  if (!account.react || !account.unreact) return () => {};
  const added = account.react(target, messageId, emoji).then(
    () => true,
    (err: Error) => {
      warn("typing reaction not set", err);
      return false;
    },
  );
  return () =>
    void added.then((ok) => {
      if (ok) account.unreact!(target, messageId, emoji).catch((err: Error) => warn("typing reaction not taken back", err));
    });
}
