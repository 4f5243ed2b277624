import type { ChannelPlugin } from "../../src/channels/types.js";
import { resolveBotToken } from "./settings.js";
import { TelegramAccount } from "./telegram-account.js";

/**
 * Telegram through grammY's API client: long polling by default, a webhook when `webhookUrl`
 * is set. Config keys: botToken | tokenFile (| TELEGRAM_BOT_TOKEN for the default account),
 * apiRoot, webhookUrl, webhookSecret, webhookPath, pollingTimeoutSeconds, pollingRetryBaseMs,
 * linkPreview.
 */
const telegramPlugin: ChannelPlugin = {
  id: "telegram",
  label: "Telegram",
  defaultLimits: { textChunkLimit: 4000 },
  blockStreaming: { followsAgentDefault: true },
  checkAccountConfig(config, env, accountId = "default") {
    const token = resolveBotToken(config, env, accountId);
    return "problem" in token ? [token.problem] : [];
  },
  botToken(config, env, accountId) {
    const token = resolveBotToken(config, env, accountId);
    return "token" in token ? token.token : undefined;
  },
  createAccount(context, env) {
    return new TelegramAccount(context, env);
  },
};

export default telegramPlugin;
