import type { ModelRequest, StreamModelFn } from "./types.js";

export type ModelTextOutcome = { ok: true; text: string } | { ok: false; error: string };

/**
 * One model call read for its text only (a summary, a side answer): the text deltas joined and
 * trimmed, or the call's error. Thinking, tool calls and usage are not kept.
 */
export async function modelText(streamModel: StreamModelFn, request: ModelRequest, signal: AbortSignal): Promise<ModelTextOutcome> {
  let text = "";
  for await (const event of streamModel(request, signal)) {
    if (event.type === "text_delta") text += event.delta;
    else if (event.type === "error") return { ok: false, error: event.error };
    else if (event.type === "done") break;
  }
  return { ok: true, text: text.trim() };
}
