import type { ChannelAccountProber } from "../../src/channels/types.js";
import { MISSING_TOKEN, resolveDiscordToken } from "./config.js";

const DEFAULT_REST = "https://discord.com/api";

/** `GET /users/@me` with the bot token: the bot's user name, or why Discord refused. */
export const probeAccount: ChannelAccountProber = async (config, env, accountId, signal) => {
  const token = resolveDiscordToken(config, env, accountId);
  if (!token) return { ok: false, problem: MISSING_TOKEN };
  const rest = (typeof config.restApiUrl === "string" ? config.restApiUrl : DEFAULT_REST).replace(/\/+$/, "");
  try {
    const res = await fetch(`${rest}/v10/users/@me`, { headers: { authorization: `Bot ${token}` }, signal });
    if (res.ok) {
      const me = (await res.json()) as { username?: string; id?: string };
      return { ok: true, identity: me.username ?? me.id ?? "bot" };
    }
    return { ok: false, problem: `Discord refused the bot token (HTTP ${res.status}); copy it again from the Developer Portal (Bot → Reset Token)` };
  } catch (err) {
    return { ok: false, problem: `Discord API ${rest} is not reachable (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name})` };
  }
};
