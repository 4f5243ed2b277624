import { channelAccountIds } from "../../config/channel-account-ids.js";
import { ConfigError, getConfigValue, readConfigFileSnapshot, setConfigValueInFile } from "../../config/index.js";
import type { ChatCommandContext } from "./chat-command-registry.js";

const CHANNELS = ["telegram", "discord", "slack"];
const USAGE = "Usage: /allowlist [list] [dm|group|all] | add|remove [dm|group] <entry>; channel=<id> and account=<id> pick another channel account.";

interface ParsedAllowlist {
  action: "list" | "add" | "remove";
  scope: "dm" | "group" | "all";
  entry: string;
  channel?: string;
  account?: string;
}

/** `/allowlist list|add|remove [dm|group] <entry> [channel=<id>] [account=<id>]`, the words in OpenClaw's order. */
export function parseAllowlistArgs(args: string): ParsedAllowlist {
  const tokens = args.trim().split(/\s+/).filter(Boolean);
  let i = 0;
  let action: ParsedAllowlist["action"] = "list";
  let scope: ParsedAllowlist["scope"] = "dm";
  const first = tokens[0]?.toLowerCase();
  if (first === "list" || first === "add" || first === "remove") (action = first), (i += 1);
  const second = tokens[i]?.toLowerCase();
  if (second === "dm" || second === "group" || second === "all") (scope = second), (i += 1);
  const rest: string[] = [];
  let channel: string | undefined;
  let account: string | undefined;
  for (; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    const flag = /^(?:--)?(channel|account)(?:=(.+))?$/i.exec(token);
    if (flag) {
      const value = flag[2] ?? tokens[++i];
      if (flag[1]!.toLowerCase() === "channel") channel = value?.toLowerCase();
      else account = value?.toLowerCase();
      continue;
    }
    rest.push(token);
  }
  return { action, scope, entry: rest.join(" "), ...(channel ? { channel } : {}), ...(account ? { account } : {}) };
}

/**
 * `/allowlist`: who may reach the bot on this channel account — the DM allowlist (`allowFrom`,
 * plus senders approved by pairing) and the group sender allowlist (`groupAllowFrom`). Anyone
 * who may run commands may list; add and remove are the owner's, need `commands.config: true`
 * (they write the config file), and go where the effective list is set: the account's block when
 * it has the key, else the channel's.
 */
export function runAllowlistCommand(args: string, ctx: ChatCommandContext): string {
  const parsed = parseAllowlistArgs(args);
  const channel = parsed.channel ?? ctx.chat?.channel;
  if (!channel) return `Name the channel: /allowlist channel=<${CHANNELS.join("|")}>. ${USAGE}`;
  if (!CHANNELS.includes(channel)) return `Unknown channel "${channel}". Channels: ${CHANNELS.join(", ")}.`;
  const block = (ctx.config().channels as Record<string, Record<string, unknown> | undefined> | undefined)?.[channel];
  if (!block) return `${channel} is not configured on this gateway (channels.${channel}).`;
  const accountId = parsed.account ?? (parsed.channel ? undefined : ctx.chat?.accountId) ?? "default";
  const accounts = block.accounts as Record<string, Record<string, unknown>> | undefined;
  const accountKey = accounts ? Object.keys(accounts).find((k) => k.toLowerCase() === accountId) : undefined;
  if (!channelAccountIds(channel, block).includes(accountId)) return `No account "${accountId}" under channels.${channel}.accounts.`;
  const own = accountKey ? accounts![accountKey]! : undefined;
  const effective = (key: string) => (own && key in own ? own[key] : block[key]) as unknown;
  const listOf = (key: string) => ((effective(key) as unknown[] | undefined) ?? []).map(String);

  if (parsed.action === "list") {
    const lines = ["Allowlist", `Channel: ${channel} (account ${accountKey ?? accountId})`];
    const groupPolicy = effective("groupPolicy") ?? ctx.config().channels?.defaults?.groupPolicy ?? "allowlist";
    lines.push(`DM policy: ${String(effective("dmPolicy") ?? "pairing")} · group policy: ${String(groupPolicy)}`);
    if (parsed.scope !== "group") {
      lines.push(`DM allowFrom (config): ${listOf("allowFrom").join(", ") || "(none)"}`);
      const paired = ctx.admin?.pairedSenders(channel, accountKey?.toLowerCase() ?? accountId) ?? [];
      if (paired.length) lines.push(`Paired (pairing store): ${paired.join(", ")}`);
    }
    if (parsed.scope !== "dm") lines.push(`Group allowFrom (config): ${listOf("groupAllowFrom").join(", ") || "(none)"}`);
    return lines.join("\n");
  }

  if (!ctx.senderIsOwner) return "/allowlist add and remove are for the bot owner only (commands.ownerAllowFrom).";
  if (!parsed.entry) return USAGE;
  if (parsed.scope === "all") return "/allowlist add|remove needs dm or group.";
  if (ctx.config().commands?.config !== true)
    return "/allowlist add and remove write the config file, which is off on this gateway. The owner can enable it with commands.config: true.";
  const admin = ctx.admin;
  if (!admin) return "/allowlist cannot change the config here.";
  if (admin.writeRefusal) return admin.writeRefusal;
  const key = parsed.scope === "dm" ? "allowFrom" : "groupAllowFrom";
  const keyPath = own && key in own ? `channels.${channel}.accounts.${accountKey}.${key}` : `channels.${channel}.${key}`;
  // The file's own list (a "${VAR}" entry stays a reference), not the loaded one.
  const snapshot = readConfigFileSnapshot(admin.configFilePath(), process.env);
  const inFile = getConfigValue(snapshot.parsed, keyPath).value;
  const current = Array.isArray(inFile) ? inFile.map(String) : [];
  const label = parsed.scope === "dm" ? "DM" : "group";
  const has = current.includes(parsed.entry);
  if (parsed.action === "add" && has) return `${parsed.entry} is already in ${keyPath}.`;
  if (parsed.action === "remove" && !has) {
    const paired = parsed.scope === "dm" && admin.pairedSenders(channel, accountKey?.toLowerCase() ?? accountId).includes(parsed.entry);
    return paired ? `${parsed.entry} is not in ${keyPath}; it was approved by pairing (pairing store), which /allowlist does not change.` : `${parsed.entry} is not in ${keyPath}.`;
  }
  const next = parsed.action === "add" ? [...current, parsed.entry] : current.filter((e) => e !== parsed.entry);
  try {
    setConfigValueInFile(admin.configFilePath(), keyPath, next, process.env);
  } catch (err) {
    if (err instanceof ConfigError)
      return `Allowlist not changed: ${err.issues.length ? err.issues.map((i) => `${i.path ? `${i.path}: ` : ""}${i.message}`).join("; ") : err.message}`;
    throw err;
  }
  const outcome = admin.configWritten();
  return `${label} allowlist ${parsed.action === "add" ? "added" : "removed"}: ${parsed.entry} (${keyPath}).${outcome.applied ? "" : " Saved; it applies after a restart (hot reload is off)."}`;
}
