import type { ChannelAccountProber } from "../../src/channels/types.js";
import { readTelegramSettings, resolveBotToken } from "./settings.js";

/** `getMe` with the account's bot token: the bot's @username, or why Telegram refused. */
export const probeAccount: ChannelAccountProber = async (config, env, accountId, signal) => {
  const token = resolveBotToken(config, env, accountId);
  if ("problem" in token) return { ok: false, problem: token.problem };
  const { apiRoot } = readTelegramSettings(config);
  try {
    const res = await fetch(`${apiRoot}/bot${token.token}/getMe`, { signal });
    const body = (await res.json().catch(() => ({}))) as { ok?: boolean; description?: string; result?: { username?: string; id?: number } };
    if (res.ok && body.ok && body.result) return { ok: true, identity: `@${body.result.username ?? body.result.id}` };
    return { ok: false, problem: `Telegram refused the bot token (HTTP ${res.status}${body.description ? `: ${body.description}` : ""}); get a new one from @BotFather` };
  } catch (err) {
    return { ok: false, problem: `Telegram API ${apiRoot} is not reachable (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name})` };
  }
};
