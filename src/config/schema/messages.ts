import { Type } from "@sinclair/typebox";
import { integer, stringEnum } from "./primitives.js";

const QueueMode = stringEnum(["steer", "followup", "collect", "interrupt"]);
const ResponseUsageMode = stringEnum(["off", "on", "tokens", "full"]);
/** `true` is read as `automatic` and `false` as `message_tool`, as OpenClaw reads them. */
const VisibleReplies = Type.Union([stringEnum(["automatic", "message_tool"]), Type.Boolean()]);

/** `messages.*`: what happens to messages that arrive while a session's run is active. */
export const MessagesSchema = Type.Object({
  queue: Type.Optional(
    Type.Object({
      mode: Type.Optional(QueueMode),
      cap: Type.Optional(integer(1, 1000)),
      drop: Type.Optional(stringEnum(["summarize", "old", "new"])),
      debounceMs: Type.Optional(integer(0, 60_000)),
      /** The mode for messages from one chat channel, in place of `mode` (a session's own `/queue` choice still wins). */
      byChannel: Type.Optional(Type.Record(Type.String({ minLength: 1 }), QueueMode)),
      /** `debounceMs` for messages from one chat channel. */
      debounceMsByChannel: Type.Optional(Type.Record(Type.String({ minLength: 1 }), integer(0, 60_000))),
    }),
  ),
  inbound: Type.Optional(
    Type.Object({
      debounceMs: Type.Optional(integer(0, 60_000)),
      /** Per channel, over debounceMs (0 turns it off there). */
      byChannel: Type.Optional(Type.Record(Type.String({ minLength: 1 }), integer(0, 60_000))),
    }),
  ),
  groupChat: Type.Optional(
    Type.Object({
      mentionPatterns: Type.Optional(Type.Array(Type.String())),
      historyLimit: Type.Optional(integer(0, 1_000)),
      /** `room_event`: in a group that needs no mention, a message that does not mention the bot is quiet room context; `user_request` (default): a request. */
      unmentionedInbound: Type.Optional(stringEnum(["room_event", "user_request"])),
      /** `visibleReplies` for group and channel chats, in place of the global one. */
      visibleReplies: Type.Optional(VisibleReplies),
    }),
  ),
  /** `message_tool`: what the agent says in a chat reaches it only through the `message` tool; its final text stays private. `automatic` (default): the final text is the reply. */
  visibleReplies: Type.Optional(VisibleReplies),
  /**
   * A usage line under each reply to a chat message (`Usage: 1.2k in / 80 out`, `full` adds the
   * estimated cost): one mode, or one per channel (`telegram`, `webchat`, …) with `default` for the rest.
   * A session's `/usage` choice wins.
   */
  responseUsage: Type.Optional(Type.Union([ResponseUsageMode, Type.Record(Type.String({ minLength: 1 }), ResponseUsageMode)])),
  /** Put before each reply in a chat (`auto`: `[<identity.name>]`; `{model}`, `{provider}`, `{thinkingLevel}`, `{identity.name}` filled in); a channel's or account's own wins. */
  responsePrefix: Type.Optional(Type.String({ maxLength: 200 })),
  /** An emoji the bot reacts with to a chat message it accepted for the agent (absent or "": none). */
  ackReaction: Type.Optional(Type.String({ maxLength: 32 })),
  /** Which accepted messages get `ackReaction`. */
  ackReactionScope: Type.Optional(stringEnum(["group-mentions", "group-all", "direct", "all"])),
  /** The ack reaction follows the run (thinking, a tool, done or error) where the platform can move a reaction. */
  statusReactions: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()) })),
});
