import type { RecordedRequest } from "../fakes/model-server.js";

/** Readers for what the gateway sent the fake model (OpenAI Chat Completions bodies). */

type WireMessage = { role: string; content?: unknown; tool_calls?: { function: { name: string } }[] };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? "").join("");
  return "";
}

export function messagesOf(request: RecordedRequest): WireMessage[] {
  return (request.body?.messages ?? []) as WireMessage[];
}

export function systemPromptOf(request: RecordedRequest): string {
  const first = messagesOf(request)[0];
  return first?.role === "system" ? textOf(first.content) : "";
}

/** A sub-agent's turn: its prompt carries the sub-agent context block. */
export function isSubagentRequest(request: RecordedRequest): boolean {
  return systemPromptOf(request).includes("## Subagent Context");
}

export function lastMessageOf(request: RecordedRequest): { role: string; text: string } {
  const last = messagesOf(request).at(-1);
  return { role: last?.role ?? "", text: textOf(last?.content) };
}

/** The newest user message's text. */
export function lastUserTextOf(request: RecordedRequest): string {
  const user = [...messagesOf(request)].reverse().find((m) => m.role === "user");
  return textOf(user?.content);
}

/** Every message's text, joined: for "does this request contain X". */
export function allTextOf(request: RecordedRequest): string {
  return messagesOf(request)
    .map((m) => textOf(m.content))
    .join("\n");
}

export function toolNamesOf(request: RecordedRequest): string[] {
  return ((request.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

/** The JSON a tool returned in the last message, when the last message is that tool's result. */
export function lastToolResultOf(request: RecordedRequest): Record<string, any> | undefined {
  const last = messagesOf(request).at(-1);
  if (last?.role !== "tool") return undefined;
  try {
    return JSON.parse(textOf(last.content)) as Record<string, any>;
  } catch {
    return { text: textOf(last.content) };
  }
}

/** Requests to the chat completions endpoint only. */
export function chatRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.path.endsWith("/chat/completions"));
}
