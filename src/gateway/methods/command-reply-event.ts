/** The one `chat` event of a chat command's answer: a `final` whose message is marked `command: true`. */
export function commandReplyEvent(runId: string, sessionKey: string, text: string): Record<string, unknown> {
  const agentId = sessionKey.startsWith("agent:") ? sessionKey.split(":")[1] : undefined;
  return {
    runId,
    sessionKey,
    ...(agentId ? { agentId } : {}),
    seq: 1,
    state: "final",
    message: { role: "assistant", content: [{ type: "text", text }], command: true, timestamp: Date.now() },
  };
}
