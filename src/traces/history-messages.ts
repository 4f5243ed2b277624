import { createHash } from "node:crypto";
import type { HistoryMessage } from "../models/messages.js";
import type { TraceRedactor } from "./redaction.js";

/**
 * A history message as a trace stores it: the message the model was sent, its texts, thinking
 * and tool arguments redacted, and each image replaced by its type and size (a trace is read to
 * see what the model was told, and images would be most of its bytes).
 */
export type TracedMessage = {
  role: string;
  content: unknown;
  [field: string]: unknown;
};

interface OmittedImage {
  type: "image";
  mimeType: string;
  /** Characters of the base64 data that was sent. */
  omittedChars: number;
}

/**
 * A session's turns resend the same message objects (the conversation window keeps them), so
 * each message's hash is taken once per object.
 */
const hashes = new WeakMap<object, string>();

/** The hash a trace refers to a history message by: of the message as sent, before redaction. */
export function historyMessageHash(message: HistoryMessage): string {
  let hash = hashes.get(message);
  if (hash === undefined) {
    hash = createHash("sha256").update(JSON.stringify(message)).digest("hex").slice(0, 32);
    hashes.set(message, hash);
  }
  return hash;
}

/** The stored form of a history message (see TracedMessage). */
export function tracedMessage(message: HistoryMessage, redactor: TraceRedactor): TracedMessage {
  const { role, content, ...rest } = message as TracedMessage;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) if (key !== "details") fields[key] = typeof value === "string" ? redactor.text(value) : value;
  return {
    role,
    content: typeof content === "string" ? redactor.text(content) : Array.isArray(content) ? content.map((block) => tracedBlock(block, redactor)) : content,
    ...fields,
  };
}

function tracedBlock(block: unknown, redactor: TraceRedactor): unknown {
  if (!block || typeof block !== "object") return block;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
      return { ...b, text: redactor.text(String(b.text ?? "")) };
    case "thinking":
      return { type: "thinking", thinking: redactor.text(String(b.thinking ?? "")) };
    case "image":
      return { type: "image", mimeType: String(b.mimeType ?? ""), omittedChars: typeof b.data === "string" ? b.data.length : 0 } satisfies OmittedImage;
    case "toolCall":
      return { ...b, arguments: redactor.value(b.arguments) };
    default:
      return redactor.value(b);
  }
}
