/** User-facing texts for a full session queue. Each names the message concerned. */
import type { InboundMessage } from "./inbound-types.js";
import { summaryLine } from "./turn-text.js";

export function rejectedNotice(cap: number, incoming: InboundMessage): string {
  return `Your message "${summaryLine(incoming.text)}" was not queued: ${cap} messages are already waiting. Please send it again after the current reply.`;
}

export function droppedNotice(cap: number, dropped: InboundMessage): string {
  return `Queue full (${cap} messages): dropped your oldest waiting message "${summaryLine(dropped.text)}".`;
}

export function summarizedNotice(cap: number, dropped: InboundMessage): string {
  return `Queue full (${cap} messages): your oldest waiting message "${summaryLine(dropped.text)}" was shortened to a one-line summary.`;
}

export function summaryDroppedNotice(maxLines: number, line: string): string {
  return `Queue full: more than ${maxLines} messages were shortened to summaries, so the summary of your message "${line}" was dropped; it will not be answered.`;
}
