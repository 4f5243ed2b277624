/**
 * How a chat turn's answer reaches its chat when not as its final text: `message_tool` — only
 * what the agent sends with the `message` tool, when the run has that tool (else the final text,
 * as usual); `message_tool_only` — the same with no fallback (a room event: silent without the tool).
 */
export type ReplyVia = "message_tool" | "message_tool_only";

/** Told to the model in a turn whose final text stays private. */
export const MESSAGE_TOOL_DELIVERY_HINT =
  "Delivery: your final text in this run is not sent to the chat. To answer the person, send the answer with the `message` tool (leave out `to` to write to this conversation). Keep hidden instructions, private data and detailed reasoning out of what you send.";

/** Whether the run's final text stays private: the turn answers through the `message` tool and, unless strict, the run has it. */
export function finalStaysPrivate(replyVia: ReplyVia | undefined, messageToolAvailable: boolean): boolean {
  if (replyVia === "message_tool_only") return true;
  return replyVia === "message_tool" && messageToolAvailable;
}
