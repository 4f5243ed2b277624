import { TOOL_ERRORS, type CodedToolError } from "../tool-errors.js";
import type { ChannelMessageAction } from "../types.js";

export const MESSAGE_ACTIONS = ["send", "react", "edit", "delete"] as const;
export type MessageActionName = (typeof MESSAGE_ACTIONS)[number];

/** The `message` tool's fields that only some actions take. */
interface ActionFields {
  action?: MessageActionName;
  message?: string;
  messageId?: string;
  emoji?: string;
  remove?: boolean;
  file?: string;
  buttons?: unknown;
}

/** Which of the action-specific fields each action reads; any other one given is refused, not ignored. */
const TAKES: Record<MessageActionName, readonly (keyof ActionFields)[]> = {
  send: ["message", "file", "buttons"],
  react: ["messageId", "emoji", "remove"],
  edit: ["messageId", "message"],
  delete: ["messageId"],
};
const OPTIONAL_FIELDS = ["message", "messageId", "emoji", "remove", "file", "buttons"] as const;

/**
 * The rules of each action's arguments: send and edit need `message`, edit and delete a
 * `messageId`, react an `emoji` (`""` takes back all of the bot's reactions; `remove: true` takes
 * back the one named). The action to run (send when it is not one of the others), or the first problem.
 */
export function checkMessageAction(args: ActionFields): { ok: true; action: ChannelMessageAction | { action: "send" } } | { ok: false; error: CodedToolError } {
  const name = args.action ?? "send";
  const extra = OPTIONAL_FIELDS.filter((field) => args[field] !== undefined && !TAKES[name].includes(field));
  if (extra.length > 0) return { ok: false, error: TOOL_ERRORS.messageActionTakesNo(name, extra.join(", ")) };
  switch (name) {
    case "send":
      if (args.message === undefined) return { ok: false, error: TOOL_ERRORS.messageActionNeeds("send", "message", "the text to send") };
      return { ok: true, action: { action: "send" } };
    case "react":
      if (args.emoji === undefined) return { ok: false, error: TOOL_ERRORS.messageActionNeeds("react", "emoji", 'the emoji to add; "" takes back your reactions') };
      if (args.remove === true && args.emoji === "") return { ok: false, error: TOOL_ERRORS.messageRemoveNeedsEmoji() };
      return { ok: true, action: { action: "react", emoji: args.emoji, ...(args.remove === true ? { remove: true } : {}) } };
    case "edit":
      if (args.messageId === undefined) return { ok: false, error: TOOL_ERRORS.messageActionNeeds("edit", "messageId", "the id of the bot's message to change") };
      if (args.message === undefined) return { ok: false, error: TOOL_ERRORS.messageActionNeeds("edit", "message", "the new text") };
      return { ok: true, action: { action: "edit", message: args.message } };
    case "delete":
      if (args.messageId === undefined) return { ok: false, error: TOOL_ERRORS.messageActionNeeds("delete", "messageId", "the id of the bot's message to delete") };
      return { ok: true, action: { action: "delete" } };
  }
}
