import type { AssistantMessage, HistoryMessage, ModelMessage, ToolResultMessage, UserMessage } from "./messages.js";

/**
 * What a model may see of one transcript message: role, content, timestamp (and a tool
 * result's call id, name and error flag), none of the transcript's ids, usage or provenance.
 *
 * A projection is an instance of this class, so it is recognised without a lookup table and
 * passes through `toModelMessages` as itself. It also carries one memo slot, private, so
 * invisible to JSON, spread and equality, where a provider keeps what it derived from the
 * message (its wire JSON): a history is resent every turn, and a message never changes once
 * written. Cached in the object, that costs two fields instead of an entry in a weak table per
 * message, for every message of every session a long-running gateway keeps.
 */
export class ModelProjection {
  #memoTag: object | undefined = undefined;
  #memo: unknown = undefined;

  static is(message: unknown): message is ModelMessage {
    return typeof message === "object" && message !== null && #memoTag in message;
  }

  /** The memo stored under `tag`, or undefined (none, another tag, or not a projection). */
  static memo(message: ModelMessage, tag: object): unknown {
    if (!(#memoTag in message)) return undefined;
    const projection = message as ModelProjection;
    return projection.#memoTag === tag ? projection.#memo : undefined;
  }

  /** Stores `value` under `tag` (replacing any other); false when `message` is not a projection. */
  static remember(message: ModelMessage, tag: object, value: unknown): boolean {
    if (!(#memoTag in message)) return false;
    const projection = message as ModelProjection;
    projection.#memoTag = tag;
    projection.#memo = value;
    return true;
  }
}

/** The projection of `raw`, or undefined for roles a model never sees. */
export function projectMessage(raw: HistoryMessage): ModelMessage | undefined {
  const m = raw as Record<string, unknown>;
  const timestamp = Number(m.timestamp) || 0;
  // Fields assigned in one order per role, so projections of a role share one hidden class.
  const p = new ModelProjection() as unknown as Record<string, unknown>;
  if (m.role === "user") {
    p.role = "user";
    p.content = m.content as UserMessage["content"];
  } else if (m.role === "assistant") {
    p.role = "assistant";
    p.content = (m.content as AssistantMessage["content"]) ?? [];
  } else if (m.role === "toolResult") {
    p.role = "toolResult";
    p.toolCallId = m.toolCallId as string;
    p.toolName = m.toolName as string;
    p.content = m.content as ToolResultMessage["content"];
    p.isError = Boolean(m.isError);
  } else return undefined;
  p.timestamp = timestamp;
  return p as unknown as ModelMessage;
}
