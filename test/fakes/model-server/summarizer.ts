import type { RecordedRequest, ScriptedReply } from "./types.js";

/** The summarizer's instructions start with this (src/sessions/compaction/summary-prompt.ts). */
const SUMMARY_MARKER = "You maintain the running summary of a conversation";

/** The request's system prompt, in either wire format. */
export function systemPromptOf(request: RecordedRequest): string {
  const body = request.body ?? {};
  if (typeof body.system === "string") return body.system;
  if (Array.isArray(body.system)) return body.system.map((b: { text?: string }) => b.text ?? "").join("\n");
  const first = body.messages?.[0];
  return first?.role === "system" ? (typeof first.content === "string" ? first.content : JSON.stringify(first.content)) : "";
}

export function isSummaryRequest(request: RecordedRequest): boolean {
  return systemPromptOf(request).startsWith(SUMMARY_MARKER);
}

/** The text of the request's last user message. */
export function lastUserText(request: RecordedRequest): string {
  const messages: { role: string; content: unknown }[] = request.body?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i]!;
    if (m.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content)) return m.content.map((p: { text?: string }) => p.text ?? "").join("");
  }
  return "";
}

/**
 * A summarizer that does its job: names how many lines it summarized and copies every
 * identifier it was asked to keep. `drop` leaves some out (to test the quality guard).
 */
export function fakeSummaryReply(request: RecordedRequest, options: { drop?: boolean; label?: string } = {}): ScriptedReply {
  const prompt = lastUserText(request);
  const ids = /<identifiers>\n([\s\S]*?)\n<\/identifiers>/.exec(prompt)?.[1]?.split("\n") ?? [];
  const lines = (/<conversation>\n([\s\S]*?)\n<\/conversation>/.exec(prompt)?.[1] ?? "").split("\n").length;
  const kept = options.drop ? [] : ids;
  return { text: `## Active tasks\n${options.label ?? "Summary"} of ${lines} lines.\n## Facts for later\n${kept.join(" ")}` };
}
