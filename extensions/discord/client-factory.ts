import { Client, GatewayIntentBits, Partials } from "discord.js";
import type { DiscordSettings } from "./config.js";
import { FinalDestroyShardingStrategy } from "./final-destroy-strategy.js";

/** A fresh, not yet logged-in discord.js client for one account; once `isRetired()` holds, its login opens no gateway socket. */
export function createDiscordClient(settings: DiscordSettings, isRetired: () => boolean): Client {
  // Messages and reactions in servers and DMs: Discord sends no MESSAGE_REACTION_ADD without the reaction intents (`reactionNotifications`).
  const intents = [
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildMessages,
    GatewayIntentBits.DirectMessages,
    GatewayIntentBits.GuildMessageReactions,
    GatewayIntentBits.DirectMessageReactions,
  ];
  if (settings.messageContentIntent) intents.push(GatewayIntentBits.MessageContent);
  return new Client({
    intents,
    // DM channels are not cached before their first message; without this partial discord.js drops DMs.
    partials: [Partials.Channel],
    rest: {
      ...(settings.restApiUrl !== undefined && { api: settings.restApiUrl }),
      // Never sleep through a rate limit inside a request: reject, so delivery learns `retry_after`
      // and waits visibly instead of a send hanging for minutes.
      rejectOnRateLimit: () => true,
    },
    ws: { buildStrategy: (manager) => new FinalDestroyShardingStrategy(manager, isRetired) },
    // Model output must never ping @everyone, roles or users; each send repeats this explicitly.
    allowedMentions: { parse: [], repliedUser: false },
    failIfNotExists: false,
    // `status` / `activity`: sent with every IDENTIFY, so a rebuilt client shows it again.
    ...(settings.presence ? { presence: settings.presence } : {}),
  });
}
