const CHAT_SESSION_STORAGE = "openclaw.controlUi.chatSession";

/** The session the Chat view opens with, as this browser last chose it; undefined: never chosen. */
export function rememberedChatSession(): string | undefined {
  return localStorage.getItem(CHAT_SESSION_STORAGE) ?? undefined;
}

/** The Chat view opens `sessionKey` next time it loads (another view's "open in Chat" uses this). */
export function rememberChatSession(sessionKey: string): void {
  localStorage.setItem(CHAT_SESSION_STORAGE, sessionKey);
}
