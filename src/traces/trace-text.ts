import type { TraceRecord } from "./types.js";

/** The most of one trace's text the word index takes. */
const MAX_TEXT_CHARS = 64 * 1024;
/** The most of one tool call's arguments (as JSON) the text takes. */
const MAX_ARGS_CHARS = 2_000;

/**
 * What a trace says, as searchable text: the messages it was given, its thinking, each tool
 * call's name, arguments and result head, the errors, and the reply (already redacted, as the
 * stored trace is). Built the same way for the index and for a hit's snippet.
 */
export function traceText(record: TraceRecord): string {
  const parts: string[] = [...record.input, ...record.thinking];
  for (const call of record.toolCalls) {
    parts.push(call.name, JSON.stringify(call.args ?? {}).slice(0, MAX_ARGS_CHARS));
    if (call.resultHead) parts.push(call.resultHead);
    if (call.decisionReason) parts.push(call.decisionReason);
  }
  for (const call of record.modelCalls) if (call.error) parts.push(call.error);
  if (record.error) parts.push(record.error);
  parts.push(record.output);
  return parts
    .filter((part) => part.trim() !== "")
    .join("\n")
    .slice(0, MAX_TEXT_CHARS);
}
