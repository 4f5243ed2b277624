/**
 * Sender allowlists as users write them: ids with or without a channel prefix
 * (`telegram:123`, `tg:123`, `discord:456`, `user:456`, `<@456>`, `slack:U1`), and `"*"` for
 * anyone. Matching is case-insensitive.
 *
 * Every channel matches by id only: names are mutable, so anyone could take a listed one. A
 * Telegram `@username` entry admits nobody (the config loader warns about it). On Discord and
 * Slack, `dangerouslyAllowNameMatching: true` on the channel or account (OpenClaw's break-glass
 * switch) also lets an entry match the sender's username there (Discord username or tag, Slack
 * handle), compared as slugs (`@Mallory`, `mallory` and `#mallory` are the same name).
 *
 * `accessGroup:<name>` stands for the members `accessGroups.<name>` lists for the channel and
 * under `*`, matched like the list's own entries. A group that is not defined admits nobody, and
 * so does a `*` among its members: naming a group never opens a list to everyone.
 */
const PREFIXES: Record<string, string[]> = {
  telegram: ["telegram:", "tg:"],
  discord: ["discord:", "user:"],
  slack: ["slack:", "user:"],
};

export function normalizeAllowEntry(channel: string, entry: string): string {
  let value = String(entry).trim().toLowerCase();
  for (const prefix of PREFIXES[channel] ?? [`${channel}:`]) {
    if (value.startsWith(prefix)) value = value.slice(prefix.length);
  }
  if (channel === "discord") value = value.replace(/^<@!?(\d+)>$/, "$1");
  return value;
}

/** Whether this channel account opted in to matching allow-list entries by name (Discord, Slack). */
export function allowsNameMatching(account: Readonly<Record<string, unknown>>): boolean {
  return account.dangerouslyAllowNameMatching === true;
}

export interface AllowListSender {
  id: string;
  username?: string;
}

/** `accessGroups` from the config: named sender lists, `members` keyed by channel id and `*`. */
export type AccessGroups = Readonly<Record<string, { members: Readonly<Record<string, readonly string[]>> }>>;

const ACCESS_GROUP_PREFIX = "accessgroup:";

/** Whether an allowlist entry names an access group (`accessGroup:<name>`). */
export function isAccessGroupEntry(entry: string): boolean {
  return String(entry).trim().toLowerCase().startsWith(ACCESS_GROUP_PREFIX);
}

/** The list with each `accessGroup:<name>` replaced by that group's members for `channel` (none for an unknown group, never `*`). */
function withAccessGroups(channel: string, list: readonly string[], groups: AccessGroups | undefined): readonly string[] {
  if (!list.some(isAccessGroupEntry)) return list;
  return list.flatMap((entry) => {
    if (!isAccessGroupEntry(entry)) return [entry];
    const name = String(entry).trim().slice(ACCESS_GROUP_PREFIX.length).trim();
    const members = groups?.[name]?.members;
    return [...(members?.[channel] ?? []), ...(members?.["*"] ?? [])].filter((member) => String(member).trim() !== "*");
  });
}

export function allowListMatches(
  channel: string,
  written: readonly string[] | undefined,
  sender: AllowListSender,
  options: { allowNameMatching?: boolean; accessGroups?: AccessGroups } = {},
): boolean {
  if (!written || written.length === 0) return false;
  const list = withAccessGroups(channel, written, options.accessGroups);
  const id = sender.id.trim().toLowerCase();
  const username = sender.username?.trim().toLowerCase().replace(/^@/, "") || undefined;
  // Telegram has no break-glass name matching: its allow-lists hold user ids only, as in OpenClaw.
  const usernameSlug = username && options.allowNameMatching === true && channel !== "telegram" ? nameSlug(username) : "";
  return list.some((raw) => {
    const entry = normalizeAllowEntry(channel, raw);
    if (entry === "*" || entry === id) return true;
    return usernameSlug !== "" && nameSlug(entry) === usernameSlug;
  });
}

/** A name as a comparable slug: lowercase letters and digits, any other run of characters one "-". */
function nameSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/^[@#]/, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** `commands.ownerAllowFrom` entries name their channel (`telegram:123`); a bare id matches any channel. */
export function isOwner(ownerAllowFrom: readonly string[] | undefined, channel: string, senderId: string): boolean {
  if (!ownerAllowFrom || ownerAllowFrom.length === 0) return false;
  const id = senderId.trim().toLowerCase();
  return ownerAllowFrom.some((raw) => {
    const owner = ownerIdOn(channel, raw);
    return owner === "*" || owner === id;
  });
}

/**
 * The id a `commands.ownerAllowFrom` entry names on `channel` (lower-cased, its prefix taken off),
 * or undefined when the entry names another channel (`discord:456` on Telegram). `*` stays `*`.
 */
export function ownerIdOn(channel: string, raw: string): string | undefined {
  const entry = String(raw).trim().toLowerCase();
  const colon = entry.indexOf(":");
  if (entry === "*" || colon < 0) return entry;
  const entryChannel = entry.slice(0, colon);
  const sameChannel = entryChannel === channel || (channel === "telegram" && entryChannel === "tg");
  return sameChannel ? normalizeAllowEntry(channel, entry) : undefined;
}

/**
 * Whether `commands.allowFrom` lets the sender run chat commands: the channel's list, else the
 * `*` list; a list holding `*` lets everyone. True when neither list is set (then whoever may
 * talk to the bot may run them, owner-only commands still needing an owner).
 */
export function commandsAllowed(
  allowFrom: Readonly<Record<string, readonly string[]>> | undefined,
  channel: string,
  sender: AllowListSender,
  accessGroups?: AccessGroups,
): boolean {
  const list = allowFrom?.[channel] ?? allowFrom?.["*"];
  if (!list) return true;
  return allowListMatches(channel, list, { id: sender.id }, { accessGroups });
}
