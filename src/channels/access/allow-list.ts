/**
 * Sender allowlists as users write them: ids with or without a channel prefix
 * (`telegram:123`, `tg:123`, `discord:456`, `slack:U1`), `@username` for Telegram's legacy
 * entries, and `"*"` for anyone. Matching is case-insensitive.
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
  return value;
}

export function allowListMatches(channel: string, list: readonly string[] | undefined, senderId: string, senderUsername?: string): boolean {
  if (!list || list.length === 0) return false;
  const id = senderId.trim().toLowerCase();
  const username = senderUsername ? `@${senderUsername.trim().toLowerCase().replace(/^@/, "")}` : undefined;
  return list.some((raw) => {
    const entry = normalizeAllowEntry(channel, raw);
    return entry === "*" || entry === id || (username !== undefined && entry === username);
  });
}

/** `commands.ownerAllowFrom` entries name their channel (`telegram:123`); a bare id matches any channel. */
export function isOwner(ownerAllowFrom: readonly string[] | undefined, channel: string, senderId: string): boolean {
  if (!ownerAllowFrom || ownerAllowFrom.length === 0) return false;
  const id = senderId.trim().toLowerCase();
  return ownerAllowFrom.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === "*") return true;
    const colon = entry.indexOf(":");
    if (colon < 0) return entry === id;
    const entryChannel = entry.slice(0, colon);
    const sameChannel = entryChannel === channel || (channel === "telegram" && entryChannel === "tg");
    return sameChannel && normalizeAllowEntry(channel, entry) === id;
  });
}
