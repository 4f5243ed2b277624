import { Type } from "@sinclair/typebox";
import type { ConversationPort } from "../../agents/conversation-port.js";
import type { TranscriptMessage } from "../../agents/types.js";
import { displayMessages } from "../../conversations/display-messages.js";
import { invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";
import { clip } from "./session-message-text.js";

const NonEmpty = Type.String({ minLength: 1, maxLength: 512 });
const PREVIEW_MAX_CHARS = 800;

/** The text of a user or assistant message chats show, for previews; undefined for anything else (input marked `display: false`). */
function messageText(message: TranscriptMessage): string | undefined {
  const m = message as { role?: string; content?: unknown; display?: unknown };
  if ((m.role !== "user" && m.role !== "assistant") || m.display === false) return undefined;
  if (typeof m.content === "string") return m.content.trim() || undefined;
  if (!Array.isArray(m.content)) return undefined;
  const text = m.content
    .filter((b) => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n")
    .trim();
  return text && text.toUpperCase() !== "NO_REPLY" ? text : undefined;
}

/** `sessions.get`, `sessions.preview` and `chat.message.get`: reading a session's messages (docs/protocol.md). */
export function registerSessionReadMethods(registry: MethodRegistry, conversations: ConversationPort): void {
  registry.register({
    name: "sessions.get",
    scope: "operator.read",
    params: Type.Object(
      { key: Type.Optional(NonEmpty), sessionKey: Type.Optional(NonEmpty), agentId: Type.Optional(NonEmpty), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })) },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const requested = params.key ?? params.sessionKey;
      if (!requested) throw invalidRequest("sessions.get needs key (or sessionKey)");
      const { sessionKey } = conversations.resolveSessionKey(requested, params.agentId?.toLowerCase());
      if (!runtime.sessions().get(sessionKey)) return { messages: [] };
      return { messages: conversations.history(sessionKey).slice(-(params.limit ?? 200)) };
    },
  });

  registry.register({
    name: "sessions.preview",
    scope: "operator.read",
    params: Type.Object(
      {
        keys: Type.Array(NonEmpty, { minItems: 1, maxItems: 64 }),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        maxChars: Type.Optional(Type.Integer({ minimum: 20 })),
      },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const limit = params.limit ?? 12;
      const maxChars = Math.min(PREVIEW_MAX_CHARS, params.maxChars ?? 240);
      const previews = params.keys.map((key) => {
        const { sessionKey } = conversations.resolveSessionKey(key, undefined);
        if (!runtime.sessions().get(sessionKey)) return { key, status: "missing", items: [] };
        const items: { role: string; text: string }[] = [];
        const messages = conversations.displayHistory(sessionKey);
        for (let i = messages.length - 1; i >= 0 && items.length < limit; i -= 1) {
          const text = messageText(messages[i]!);
          if (text) items.push({ role: messages[i]!.role, text: clip(text, maxChars) });
        }
        items.reverse();
        return { key, status: items.length > 0 ? "ok" : "empty", items };
      });
      return { ts: Date.now(), previews };
    },
  });

  registry.register({
    name: "chat.message.get",
    scope: "operator.read",
    params: Type.Object(
      { sessionKey: NonEmpty, agentId: Type.Optional(NonEmpty), messageId: NonEmpty, maxChars: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_000_000 })) },
      { additionalProperties: false },
    ),
    handler: (params, { runtime }) => {
      const { sessionKey } = conversations.resolveSessionKey(params.sessionKey, params.agentId?.toLowerCase());
      if (!runtime.sessions().get(sessionKey)) return { ok: false };
      const found = conversations.displayHistory(sessionKey).find((m) => conversations.entryIdOf(m) === params.messageId);
      if (!found) return { ok: false };
      const [message] = displayMessages([found], { limit: 1, maxChars: params.maxChars ?? 2_000_000, idOf: (m) => conversations.entryIdOf(m) });
      return message ? { ok: true, message } : { ok: false };
    },
  });
}
