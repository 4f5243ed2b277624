import type { ChannelAccountProber } from "../../src/channels/types.js";
import { readSlackSettings } from "./settings.js";

/** `auth.test` with the bot token: the bot user and workspace, or Slack's error code. */
export const probeAccount: ChannelAccountProber = async (config, env, accountId, signal) => {
  const settings = readSlackSettings(config, env, accountId);
  if (!settings.botToken) return { ok: false, problem: "Slack needs a bot token: set botToken to the app's xoxb-… token" };
  const url = `${settings.slackApiUrl.replace(/\/+$/, "")}/auth.test`;
  try {
    const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${settings.botToken}` }, signal });
    const body = (await res.json().catch(() => ({}))) as { ok?: boolean; error?: string; user?: string; team?: string };
    if (body.ok) return { ok: true, identity: `${body.user ?? "bot"}${body.team ? ` in ${body.team}` : ""}` };
    return { ok: false, problem: `Slack refused the bot token (${body.error ?? `HTTP ${res.status}`}); reinstall the app and copy the xoxb- token again` };
  } catch (err) {
    return { ok: false, problem: `Slack API ${url} is not reachable (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name})` };
  }
};
