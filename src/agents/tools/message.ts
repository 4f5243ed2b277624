import fs from "node:fs";
import path from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { isCommandButton } from "../command-buttons.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, ChannelActionResult, ChannelMessageAction, ChannelMessenger, ToolResult } from "../types.js";
import { checkMessageAction, MESSAGE_ACTIONS } from "./message-action-args.js";
import { resolveWorkspacePath } from "./workspace-path.js";

const MessageParameters = Type.Object({
  action: Type.Optional(
    Type.Union(
      MESSAGE_ACTIONS.map((name) => Type.Literal(name)),
      { description: "send (the default), react (add or take back an emoji reaction), edit (change a message you sent), delete (remove a message you sent)." },
    ),
  ),
  message: Type.Optional(
    Type.String({ description: "send: the text to send (Markdown; converted for the platform). edit: the new text. Required for both.", minLength: 1, maxLength: 20_000 }),
  ),
  messageId: Type.Optional(
    Type.String({
      minLength: 1,
      description: "react, edit, delete: the platform's id of the message. react in the current conversation defaults to the message you are answering.",
    }),
  ),
  emoji: Type.Optional(Type.String({ maxLength: 64, description: 'react: the emoji to add; "" takes back your reactions where the channel can.' })),
  remove: Type.Optional(Type.Boolean({ description: "react: take back `emoji` instead of adding it." })),
  to: Type.Optional(Type.String({ description: "Target: a Telegram chat id or @username, channel:<id> / user:<id> (Discord, Slack). Omit to act in the current conversation." })),
  channel: Type.Optional(Type.String({ description: "telegram, discord or slack. Omit for the current conversation's channel." })),
  accountId: Type.Optional(Type.String({ description: "The bot account, when the channel has several." })),
  threadId: Type.Optional(Type.String({ description: "Thread or forum topic to post into." })),
  file: Type.Optional(Type.String({ description: "A workspace file to send (images show as pictures where the chat can); `message` becomes its caption." })),
  buttons: Type.Optional(
    Type.Array(
      Type.Array(
        Type.Object({
          label: Type.String({ minLength: 1, maxLength: 64 }),
          value: Type.String({ minLength: 1, maxLength: 64, description: "Sent back to you as `callback_data: <value>` when pressed (at most 64 bytes)." }),
          style: Type.Optional(Type.Union([Type.Literal("primary"), Type.Literal("success"), Type.Literal("danger")])),
        }),
        { minItems: 1, maxItems: 5 },
      ),
      {
        minItems: 1,
        maxItems: 5,
        description: "Rows of buttons under the message (Telegram, Discord, Slack). A press reaches you as a message from whoever pressed it: `callback_data: <value>`.",
      },
    ),
  ),
});

/** Telegram's limit on a button's data, the smallest of the three platforms'. */
const MAX_BUTTON_VALUE_BYTES = 64;

export type MessageArgs = Static<typeof MessageParameters>;

/**
 * `message`: send a chat message now — a progress note in the current conversation, or a text to
 * another chat — or react to, edit or delete one (`action`). Owner-only (it speaks as the bot to
 * anyone the bot can reach) and subject to the tool policy like every tool, except in a turn that
 * answers its chat through this tool (`messages.visibleReplies: message_tool`, room events): there
 * a sender who is not the owner keeps it for the current conversation only. A final reply that repeats what it sent to the
 * conversation is not delivered a second time.
 */
export function createMessageTool(): AgentTool<typeof MessageParameters> {
  return {
    name: "message",
    description:
      "Send a chat message through Telegram, Discord or Slack right away, or a file from the workspace (`file`). Use it for a progress note in the current conversation, to share a file you made, or to write to another chat the user named. Your final answer is delivered to the conversation anyway (unless the prompt says your final text is not sent): do not use this tool to repeat it. `action` also reacts to a message with an emoji (react; without messageId, the message you are answering), or edits or deletes a message you sent (edit, delete; messageId from the send's result).",
    parameters: MessageParameters,
    ownerOnly: true,
    async execute(args, ctx) {
      const messenger = ctx.services.channelMessenger;
      if (!messenger) return toolError(TOOL_ERRORS.channelsUnavailable());
      const elsewhere = (["to", "channel", "accountId", "threadId", "file"] as const).filter((field) => args[field] !== undefined);
      if (!ctx.senderIsOwner && elsewhere.length > 0) return toolError(TOOL_ERRORS.messageTargetOwnerOnly(elsewhere.join(", ")));
      const checked = checkMessageAction(args);
      if (!checked.ok) return toolError(checked.error);
      // A bot that is a group's admin may edit or delete anyone's message there: that is the owner's to ask.
      const editing = checked.action.action === "edit" || checked.action.action === "delete";
      if (!ctx.senderIsOwner && editing) return toolError(TOOL_ERRORS.messageActionOwnerOnly(checked.action.action));
      if (checked.action.action !== "send") return act(messenger, checked.action, args, ctx.sessionKey);
      const buttonProblem = args.buttons ? problemWithButtons(args.buttons, args.file !== undefined) : undefined;
      if (buttonProblem) return toolError(TOOL_ERRORS.messageButtonsInvalid(buttonProblem));
      const { file: requestedFile, action: _send, ...request } = args;
      let file: { path: string; fileName: string } | undefined;
      if (requestedFile !== undefined) {
        // Only a regular file inside the workspace may leave the machine.
        const resolved = resolveWorkspacePath(ctx.workspaceDir, requestedFile);
        if (!resolved.ok) return resolved.result;
        const stats = fs.statSync(resolved.absolute, { throwIfNoEntry: false });
        if (!stats) return toolError(TOOL_ERRORS.fileNotFound(resolved.relative));
        if (stats.isDirectory()) return toolError(TOOL_ERRORS.isADirectory(resolved.relative));
        if (!stats.isFile()) return toolError(TOOL_ERRORS.notARegularFile(resolved.relative));
        file = { path: resolved.absolute, fileName: path.basename(resolved.absolute) };
      }
      try {
        const sent = await messenger.send({ ...request, message: args.message!, ...(file ? { file } : {}), ...(ctx.sessionKey ? { sessionKey: ctx.sessionKey } : {}) });
        const buttonsNote = sent.buttonsNotAttached ? ` Sent without its buttons: ${sent.buttonsNotAttached}.` : "";
        return toolText(`Sent to ${sent.channel} ${sent.chatId} (message ${sent.messageIds.join(", ")}).${buttonsNote}`, sent);
      } catch (err) {
        return toolError(TOOL_ERRORS.channelSendFailed((err as Error).message));
      }
    },
  };
}

/** react, edit or delete one message, in the chat the target fields name (absent: the current conversation). */
async function act(messenger: ChannelMessenger, action: ChannelMessageAction, args: MessageArgs, sessionKey: string | undefined): Promise<ToolResult> {
  const { to, channel, accountId, threadId, messageId } = args;
  const target = { ...(to ? { to } : {}), ...(channel ? { channel } : {}), ...(accountId ? { accountId } : {}), ...(threadId ? { threadId } : {}) };
  try {
    const done = await messenger.act({ ...action, ...target, ...(messageId ? { messageId } : {}), ...(sessionKey ? { sessionKey } : {}) });
    return toolText(describeAction(done), done);
  } catch (err) {
    return toolError(TOOL_ERRORS.channelActionFailed(action.action, (err as Error).message));
  }
}

function describeAction(done: ChannelActionResult): string {
  const where = `${done.channel} ${done.chatId} message ${done.messageId}`;
  if (done.action === "edit") return `Edited ${where}.`;
  if (done.action === "delete") return `Deleted ${where}.`;
  if (done.removed === "") return `Took back your reactions on ${where}.`;
  if (done.removed !== undefined) return `Took back ${done.removed} on ${where}.`;
  return `Reacted ${done.added} to ${where}.`;
}

/** Buttons go with text only; a value is at most 64 bytes and never a chat command's shape (a press of one would run it as the presser). */
function problemWithButtons(rows: NonNullable<MessageArgs["buttons"]>, withFile: boolean): string | undefined {
  if (withFile) return "buttons go under a text message, not a file";
  for (const button of rows.flat()) {
    if (Buffer.byteLength(button.value) > MAX_BUTTON_VALUE_BYTES) return `the value of "${button.label}" is over ${MAX_BUTTON_VALUE_BYTES} bytes`;
    if (isCommandButton(button.value)) return `the value of "${button.label}" is shaped like an answer to the gateway's own questions (/approve, /answer), which only they carry`;
  }
  return undefined;
}
