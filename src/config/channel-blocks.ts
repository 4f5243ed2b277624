import { isPlainObject, type KeyPathSegment } from "./key-path.js";
import { CHANNEL_IDS } from "./schema/channels.js";

/** One channel block or one of its accounts, with the key path that holds it. */
export interface ChannelBlock {
  channel: string;
  path: KeyPathSegment[];
  block: Record<string, unknown>;
}

/** Each channel block (`channels.<c>`) and each of its accounts (`channels.<c>.accounts.<id>`), in document order. */
export function channelBlocks(channels: unknown): ChannelBlock[] {
  const out: ChannelBlock[] = [];
  if (!isPlainObject(channels)) return out;
  for (const [channel, block] of channelEntries(channels)) {
    if (!isPlainObject(block)) continue;
    out.push({ channel, path: ["channels", channel], block });
    if (!isPlainObject(block.accounts)) continue;
    for (const [id, account] of Object.entries(block.accounts)) {
      if (isPlainObject(account)) out.push({ channel, path: ["channels", channel, "accounts", id], block: account });
    }
  }
  return out;
}

/** The channel blocks among `channels`' keys: `channels.defaults` and `channels.modelByChannel` are not channels. */
export function channelEntries<T>(channels: Readonly<Record<string, T>> | undefined): [string, T][] {
  return Object.entries(channels ?? {}).filter(([id]) => CHANNEL_IDS.includes(id));
}
