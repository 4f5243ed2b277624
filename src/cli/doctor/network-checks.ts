import { CHANNEL_IDS, resolveChannelAccounts } from "../../channels/config/channel-accounts.js";
import { loadBuiltinChannelProber } from "../../gateway/builtin-channel-plugins.js";
import { DEFAULT_GATEWAY_PORT } from "../../config/index.js";
import { loopbackAliasFor, resolveBindHost, type BindMode } from "../../gateway/bind-host.js";
import { readLiveLock } from "../../gateway/state-lock.js";
import { findPortOwner, probePortFree } from "../../infra/port-owner.js";
import { ollamaBearerKey, probeProvider, resolveModel } from "../../models/index.js";
import type { DoctorCheck, DoctorContext } from "./check.js";

/**
 * The gateway's port: free on every address the gateway would listen on (the bind address, and
 * 127.0.0.1 beside a specific one), or held by this state dir's own gateway. Anything else names
 * the holder.
 */
export async function checkPort(ctx: DoctorContext): Promise<DoctorCheck> {
  const config = ctx.loaded?.config;
  const envPort = Number(ctx.env.OPENCLAW_GATEWAY_PORT);
  const port = ctx.env.OPENCLAW_GATEWAY_PORT && Number.isInteger(envPort) ? envPort : (config?.gateway?.port ?? DEFAULT_GATEWAY_PORT);
  let host: string;
  try {
    host = resolveBindHost((config?.gateway?.bind as BindMode | undefined) ?? "loopback", config?.gateway?.customBindHost).host;
  } catch (err) {
    return { id: "port", status: "fail", message: (err as Error).message, fix: "set gateway.customBindHost or another gateway.bind" };
  }
  const live = readLiveLock(ctx.stateDir);
  if (live && live.port === port) return { id: "port", status: "ok", message: `port ${port} is served by this gateway (pid ${live.pid})` };
  const alias = loopbackAliasFor(host);
  for (const address of alias ? [host, alias] : [host]) {
    const taken = await portTaken(address, port);
    if (taken) return taken;
  }
  return { id: "port", status: "ok", message: `port ${port} on ${host}${alias ? ` and ${alias}` : ""} is free` };
}

/** The failed check when `host:port` cannot be listened on, else undefined. */
async function portTaken(host: string, port: number): Promise<DoctorCheck | undefined> {
  const probe = await probePortFree(host, port);
  if (probe.free) return undefined;
  if (probe.code === "EADDRINUSE") {
    const owner = findPortOwner(port);
    const who = owner ? `pid ${owner.pid}${owner.command ? ` (${owner.command})` : ""}` : "another process (not one of this user's, or not visible here)";
    return {
      id: "port",
      status: "fail",
      message: `port ${port} on ${host} is in use by ${who}`,
      fix: `stop that process, or move the gateway: \`openclaw config set gateway.port ${port + 1}\``,
    };
  }
  return { id: "port", status: "fail", message: `cannot listen on ${host}:${port} (${probe.code})`, fix: "choose another gateway.port or gateway.bind" };
}

export async function checkProvider(ctx: DoctorContext): Promise<DoctorCheck> {
  if (!ctx.loaded) return { id: "provider", status: "skip", message: "skipped: the config did not load" };
  const resolved = resolveModel(undefined, ctx.loaded.config, ctx.env);
  if (!resolved.ok) return { id: "provider", status: "fail", message: resolved.message, fix: "run `openclaw onboard`, or set the key/model named above" };
  const probe = await probeProvider(resolved.model, ctx.timeoutMs);
  if (!probe.ok) return { id: "provider", status: "fail", message: probe.problem, fix: probe.fix };
  const ref = resolved.model.ref;
  const keyless = resolved.model.api === "ollama" && !ollamaBearerKey(resolved.model.apiKey);
  if (probe.modelListed === false) {
    return {
      id: "provider",
      status: "warn",
      message: `provider "${resolved.model.provider}" ${keyless ? "answered" : "accepted the key"}, but does not list model ${resolved.model.id}`,
      fix:
        resolved.model.api === "ollama"
          ? `pull it on that server (\`ollama pull ${resolved.model.id}\`), or check the model id in agents.defaults.model (now ${ref})`
          : `check the model id in agents.defaults.model (now ${ref})`,
    };
  }
  return { id: "provider", status: "ok", message: `${ref}: provider reachable ${keyless ? "(no key needed)" : "and the key accepted"}` };
}

/** Each enabled channel account's token, with one authenticated request per account. */
export async function checkChannels(ctx: DoctorContext): Promise<DoctorCheck[]> {
  if (!ctx.loaded) return [];
  const checks: DoctorCheck[] = [];
  for (const channel of CHANNEL_IDS) {
    const accounts = resolveChannelAccounts(ctx.loaded.config, channel).filter((a) => a.enabled);
    if (accounts.length === 0) continue;
    const probe = await loadBuiltinChannelProber(channel);
    for (const account of accounts) {
      const id = `channel:${channel}:${account.accountId}`;
      const result = await probe(account.config, ctx.env, account.accountId, AbortSignal.timeout(ctx.timeoutMs));
      checks.push(
        result.ok
          ? { id, status: "ok", message: `${channel} account "${account.accountId}": token accepted (${result.identity})` }
          : {
              id,
              status: "fail",
              message: `${channel} account "${account.accountId}": ${result.problem}`,
              fix: `fix the token in channels.${channel}, or set enabled: false on the account`,
            },
      );
    }
  }
  return checks;
}
