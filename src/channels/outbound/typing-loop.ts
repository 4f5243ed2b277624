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
