import type { ChannelPlugin } from "../../src/channels/types.js";
import { DiscordAccount } from "./account.js";
import { MISSING_TOKEN, readDiscordSettings, readPresence, resolveDiscordToken } from "./config.js";
import { DeferredInteractions } from "./deferred-interactions.js";

/** Deferred slash commands outlive the account run that deferred them (a reload restarts it). */
const deferredInteractions = new DeferredInteractions();

/**
 * Discord over the bot gateway (discord.js 14). MESSAGE_CREATEs become inbound messages and
 * MESSAGE_REACTION_ADDs reactions (`reactionNotifications`); outbound chunks are posted as Markdown
 * with embeds suppressed and every mention disabled.
 */
const discordPlugin: ChannelPlugin = {
  id: "discord",
  label: "Discord",
  defaultLimits: { textChunkLimit: 2000, maxLinesPerMessage: 17 },
  blockStreaming: { coalesce: { minChars: 1500, idleMs: 1000 } },

  // DISCORD_BOT_TOKEN counts for the default account only (and when no account id is given).
  checkAccountConfig(config, env, accountId) {
    if (!resolveDiscordToken(config, env, accountId)) return [MISSING_TOKEN];
    const presence = readPresence(config);
    return "problem" in presence ? [presence.problem] : [];
  },

  botToken(config, env, accountId) {
    return resolveDiscordToken(config, env, accountId);
  },

  createAccount(context, env) {
    return new DiscordAccount(context, readDiscordSettings(context.config, env, context.accountId), deferredInteractions);
  },
};

export default discordPlugin;
