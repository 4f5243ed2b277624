import type { OpenClawConfig } from "../../config/index.js";
import { normalizeAllowEntry, ownerIdOn } from "../access/allow-list.js";
import { CHANNEL_IDS, defaultAccountId, isChannelId, resolveChannelAccounts, type ChannelId } from "../config/channel-accounts.js";

/** A DM with the owner: where a reply meant for them goes. */
export interface OwnerRoute {
  channel: ChannelId;
  to: string;
  accountId: string;
}

/**
 * The target that DMs the user an allow-list entry names, or undefined when the entry names no
 * single user by id: Telegram `123` (a positive chat id is the user's DM), Discord `user:<id>`,
 * Slack `user:<U…>`. Usernames, groups and `*` name no DM.
 */
export function ownerDmTarget(channel: ChannelId, entry: string): string | undefined {
  const id = normalizeAllowEntry(channel, entry);
  if (channel === "telegram") return /^[1-9]\d{0,19}$/.test(id) ? id : undefined;
  if (channel === "discord") return /^\d{5,20}$/.test(id) ? `user:${id}` : undefined;
  return /^[uw][a-z0-9]{2,}$/.test(id) ? `user:${id.toUpperCase()}` : undefined;
}

/**
 * Whether a delivery target written as `ownerDmTarget` writes them names a DM: a Telegram user id
 * (positive), a Discord or Slack `user:<id>`, a Slack DM conversation `D…`. Anything else (a
 * group or channel id, an `@name`) is not known to be one.
 */
export function namesDirectChat(channel: string, to: string): boolean {
  const target = to.trim();
  if (channel === "telegram") return /^[1-9]\d{0,19}$/.test(target);
  if (/^user:/i.test(target)) return true;
  return channel === "slack" && /^D[A-Z0-9]{2,}$/.test(target);
}

/**
 * The owner's DM, found as OpenClaw finds it for a heartbeat's `target: "owner"`: channels in
 * order (the one the main session last talked on first, then every configured, enabled one),
 * and on them first an owner `commands.ownerAllowFrom` names (`telegram:123`, or a bare id for
 * any channel), then, on no channel an owner, the first user the account's DM `allowFrom` lists.
 * The account is `accountId` when given, else the last chat's on its channel, else the channel's
 * default. Undefined when no entry names a user by id.
 */
export function resolveOwnerRoute(config: OpenClawConfig, last: { channel: string; accountId?: string } | undefined, accountId?: string): OwnerRoute | undefined {
  const candidates: { channel: ChannelId; accountId: string; allowFrom: readonly string[] }[] = [];
  const add = (channel: ChannelId, preferred?: string) => {
    if (candidates.some((c) => c.channel === channel)) return;
    const accounts = resolveChannelAccounts(config, channel);
    const wanted = (accountId ?? preferred ?? defaultAccountId(config, channel))?.toLowerCase();
    const account = accounts.find((a) => a.accountId === wanted);
    if (!account?.enabled) return;
    candidates.push({ channel, accountId: account.accountId, allowFrom: (account.config.allowFrom as string[] | undefined) ?? [] });
  };
  if (last && isChannelId(last.channel)) add(last.channel, last.accountId);
  for (const channel of CHANNEL_IDS) add(channel);

  for (const candidate of candidates) {
    for (const entry of config.commands?.ownerAllowFrom ?? []) {
      const owner = ownerIdOn(candidate.channel, entry);
      const to = owner === undefined ? undefined : ownerDmTarget(candidate.channel, owner);
      if (to) return { channel: candidate.channel, to, accountId: candidate.accountId };
    }
  }
  for (const candidate of candidates) {
    for (const entry of candidate.allowFrom) {
      const to = ownerDmTarget(candidate.channel, String(entry));
      if (to) return { channel: candidate.channel, to, accountId: candidate.accountId };
    }
  }
  return undefined;
}
