import { ApplicationCommandOptionType, type ChatInputCommandInteraction, type RESTPostAPIChatInputApplicationCommandsJSONBody } from "discord.js";
import type { InboundMessage, NativeCommand } from "../../src/channels/types.js";
import { interactionEnvelope } from "./interaction-envelope.js";

/** Discord's limits: descriptions of 1–100 characters, at most 100 global commands. */
const MAX_DESCRIPTION = 100;
const MAX_COMMANDS = 100;
/** The one option a command that takes arguments gets: the rest of the line, as typed after the name. */
const ARGS_OPTION = "args";
/** Commands registered under another name: Discord's own client has a `/tts`, so ours is `/voice` there, as in OpenClaw (an alias of /tts). */
const DISCORD_NAMES: Readonly<Record<string, string>> = { tts: "voice" };

/** The gateway's chat command menu as Discord application commands (`PUT /applications/:id/commands`). */
export function toApplicationCommands(commands: readonly NativeCommand[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commands.slice(0, MAX_COMMANDS).map((c) => {
    const description = c.description.length > MAX_DESCRIPTION ? `${c.description.slice(0, MAX_DESCRIPTION - 1)}…` : c.description;
    const body: RESTPostAPIChatInputApplicationCommandsJSONBody = { name: DISCORD_NAMES[c.command] ?? c.command, description };
    if (c.args) body.options = [{ type: ApplicationCommandOptionType.String, name: ARGS_OPTION, description: c.args.slice(0, MAX_DESCRIPTION), required: false }];
    return body;
  });
}

/**
 * A slash command a user ran, as the inbound message the pipeline runs: the text is the command
 * line (`/queue steer`), so it goes through the same registry as a typed command.
 */
export function interactionToInbound(interaction: ChatInputCommandInteraction): InboundMessage {
  const args = interaction.options.getString(ARGS_OPTION)?.trim();
  return interactionEnvelope(interaction, args ? `/${interaction.commandName} ${args}` : `/${interaction.commandName}`);
}
