import type { FakeToolCall, FakeUsage, ScriptedReply } from "./types.js";

/**
 * Splits text into `parts` pieces of near-equal size (fewer when the text is shorter), so
 * every streamed value really arrives over several chunks and clients must join them.
 */
export function splitIntoPieces(text: string, parts = 3): string[] {
  if (text.length <= 1) return text ? [text] : [];
  const count = Math.min(parts, text.length);
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

export function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

export function effectiveStopReason(reply: ScriptedReply): "stop" | "length" | "toolUse" {
  return reply.stopReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? "toolUse" : "stop");
}

export function effectiveUsage(reply: ScriptedReply): FakeUsage {
  return { input: 25, output: 12, cacheRead: 0, cacheWrite: 0, ...reply.usage };
}

export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`;
}
