import { ActionRowBuilder, ButtonBuilder, ButtonStyle, type ButtonInteraction } from "discord.js";
import { isCommandButton } from "../../src/agents/command-buttons.js";
import type { ChatButton, InboundMessage } from "../../src/channels/types.js";
import { interactionEnvelope } from "./interaction-envelope.js";

/** Discord's limits: 5 buttons a row, 5 rows a message, 80 characters a label, 100 a custom id. */
const MAX_ROWS = 5;
const MAX_PER_ROW = 5;
const MAX_LABEL = 80;
const MAX_CUSTOM_ID = 100;

const STYLES: Record<NonNullable<ChatButton["style"]>, ButtonStyle> = { primary: ButtonStyle.Primary, success: ButtonStyle.Success, danger: ButtonStyle.Danger };

/** Rows of buttons as Discord action rows; each button's custom id is its `data`, sent back when pressed. */
export function toActionRows(rows: readonly (readonly ChatButton[])[]): ActionRowBuilder<ButtonBuilder>[] {
  return rows.slice(0, MAX_ROWS).map((row) =>
    new ActionRowBuilder<ButtonBuilder>().addComponents(
      row.slice(0, MAX_PER_ROW).map((button) => {
        if (button.data.length > MAX_CUSTOM_ID) throw new Error(`discord: a button's data is at most ${MAX_CUSTOM_ID} characters (got ${button.data.length})`);
        return new ButtonBuilder()
          .setCustomId(button.data)
          .setLabel(button.label.slice(0, MAX_LABEL))
          .setStyle(button.style ? STYLES[button.style] : ButtonStyle.Secondary);
      }),
    ),
  );
}

/**
 * A press of a button under one of the bot's messages, as its presser's message (authorized as
 * theirs): a command button's is that command typed (a native command, answered to the presser);
 * any other's is `callback_data: <custom id>`, for the agent, as on Telegram.
 */
export function buttonToInbound(interaction: ButtonInteraction): { envelope: InboundMessage; command: boolean } {
  const command = isCommandButton(interaction.customId);
  return command
    ? { envelope: interactionEnvelope(interaction, interaction.customId), command }
    : { envelope: interactionEnvelope(interaction, `callback_data: ${interaction.customId}`, "press"), command };
}
