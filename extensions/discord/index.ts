import type { ChannelLimits, ChannelPlugin } from "../../src/channels/types.js";
import { DiscordAccount } from "./account.js";
import { MISSING_TOKEN, readDiscordSettings, resolveDiscordToken } from "./config.js";

const DEFAULT_LIMITS: ChannelLimits = { textChunkLimit: 2000, maxLinesPerMessage: 17 };

/**
 * Discord over the bot gateway (discord.js 14). MESSAGE_CREATEs become inbound messages; outbound
 * chunks are posted as Markdown with embeds suppressed and every mention disabled.
 */
const discordPlugin: ChannelPlugin = {
  id: "discord",
  label: "Discord",
  defaultLimits: DEFAULT_LIMITS,

  // The check does not know the account id, so DISCORD_BOT_TOKEN counts here for every account;
  // `createAccount` then applies it to the default account only.
  checkAccountConfig(config, env) {
    return resolveDiscordToken(config, env) ? [] : [MISSING_TOKEN];
  },

  createAccount(context, env) {
    const limits: ChannelLimits = {
      textChunkLimit: (context.config.textChunkLimit as number | undefined) ?? DEFAULT_LIMITS.textChunkLimit,
      maxLinesPerMessage: (context.config.maxLinesPerMessage as number | undefined) ?? DEFAULT_LIMITS.maxLinesPerMessage,
    };
    return new DiscordAccount(context, readDiscordSettings(context.config, env, context.accountId), limits);
  },
};

export default discordPlugin;
