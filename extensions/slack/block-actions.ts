import type { types as SlackTypes } from "@slack/bolt";
import { isCommandButton } from "../../src/agents/command-buttons.js";
import type { ChatButton, InboundMessage } from "../../src/channels/types.js";
import type { SlackDirectory } from "./directory.js";

/** Slack's limits: 3,000 characters a section's text, 75 a button's label, 2,000 its value, 25 elements an actions block. */
const MAX_SECTION = 3000;
const MAX_LABEL = 75;
const MAX_VALUE = 2000;
const MAX_PER_ROW = 25;

/** Slack colours only two kinds of button: `primary` (green) and `danger` (red). */
const STYLES: Record<NonNullable<ChatButton["style"]>, "primary" | "danger" | undefined> = { success: "primary", primary: undefined, danger: "danger" };

/** A message's text with rows of buttons under it, as Block Kit blocks: a section, then one actions block per row. */
export function buttonBlocks(rows: readonly (readonly ChatButton[])[], mrkdwn: string): SlackTypes.KnownBlock[] {
  const section: SlackTypes.SectionBlock = { type: "section", text: { type: "mrkdwn", text: mrkdwn.length > MAX_SECTION ? `${mrkdwn.slice(0, MAX_SECTION - 1)}…` : mrkdwn } };
  const actions = rows.map(
    (row, r): SlackTypes.ActionsBlock => ({
      type: "actions",
      block_id: `openclaw_buttons_${r}`,
      elements: row.slice(0, MAX_PER_ROW).map((button, i) => {
        if (button.data.length > MAX_VALUE) throw new Error(`Slack: a button's data is at most ${MAX_VALUE} characters (got ${button.data.length})`);
        const style = button.style ? STYLES[button.style] : undefined;
        const element: SlackTypes.Button = {
          type: "button",
          action_id: `openclaw_button_${r}_${i}`,
          text: { type: "plain_text", text: button.label.slice(0, MAX_LABEL) },
          value: button.data,
          ...(style ? { style } : {}),
        };
        return element;
      }),
    }),
  );
  return [section, ...actions];
}

/** The fields of a `block_actions` payload this account reads. */
export interface BlockActionsBody {
  trigger_id: string;
  user: { id: string };
  team?: { id: string } | null;
  channel?: { id: string };
  message?: { ts: string; thread_ts?: string };
}

/**
 * A press of a button under one of the bot's messages, as its presser's message (authorized as
 * theirs), with the id (`action:<trigger_id>`) a command's answer is remembered by: a command
 * button's is that command typed (a native command, answered on the press's `response_url`); any
 * other's is `callback_data: <value>`, for the agent, as on Telegram. Undefined for a press
 * without a value or outside a conversation.
 */
export async function buttonPressInbound(
  body: BlockActionsBody,
  value: string | undefined,
  directory: SlackDirectory,
): Promise<{ envelope: InboundMessage; command: boolean } | undefined> {
  const channel = body.channel?.id;
  if (value === undefined || !channel) return undefined;
  const command = isCommandButton(value);
  const [chatType, sender] = await Promise.all([directory.chatKind(channel), directory.profile(body.user.id)]);
  const envelope: InboundMessage = {
    messageId: `action:${body.trigger_id}`,
    chatType,
    chatId: channel,
    senderId: body.user.id,
    text: command ? value : `callback_data: ${value}`,
    // A command is addressed to the bot and Slack waits for its answer; any press is on the bot's own message.
    ...(command ? { mentionedBot: true, nativeCommand: true } : { replyToBot: true }),
    timestamp: Date.now(),
  };
  if (body.message?.thread_ts) envelope.threadId = body.message.thread_ts;
  if (body.team?.id) envelope.teamId = body.team.id;
  if (sender?.name) envelope.senderName = sender.name;
  if (sender?.username) envelope.senderUsername = sender.username;
  return { envelope, command };
}
