import { ActionRowBuilder, ButtonBuilder, ButtonStyle, type ButtonInteraction } from "discord.js";
import { isCommandButton } from "../../src/channels/command-buttons.js";
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
 * A press of one of the bot's command buttons, as that command typed by whoever pressed it (and
 * authorized as theirs); undefined for any other button (the gateway makes no other kind).
 */
export function buttonToInbound(interaction: ButtonInteraction): InboundMessage | undefined {
  return isCommandButton(interaction.customId) ? interactionEnvelope(interaction, interaction.customId) : undefined;
}
