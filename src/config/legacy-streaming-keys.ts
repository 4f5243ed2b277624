import { isPlainObject } from "./key-path.js";
import { CHANNEL_IDS } from "./schema/channels.js";

/** Flat keys OpenClaw moved under a channel's `streaming`, and where each went. */
const FLAT_KEYS: Record<string, string[]> = {
  streamMode: ["mode"],
  chunkMode: ["chunkMode"],
  blockStreaming: ["block", "enabled"],
  blockStreamingCoalesce: ["block", "coalesce"],
};

/**
 * OpenClaw's older streaming spellings of a channel (and of each of its accounts), read as its
 * `openclaw doctor --fix` rewrites them: `streamMode` and a scalar `streaming` (a mode, or a
 * boolean: `true` is `partial`) → `streaming.mode`, `chunkMode` → `streaming.chunkMode`,
 * `blockStreaming` → `streaming.block.enabled`, `blockStreamingCoalesce` →
 * `streaming.block.coalesce`. A nested value already set wins. Each move is warned about.
 */
export function moveLegacyStreamingKeys(raw: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  if (!isPlainObject(raw.channels)) return raw;
  const channels: Record<string, unknown> = { ...raw.channels };
  let changed = false;
  for (const channel of CHANNEL_IDS) {
    const block = channels[channel];
    if (!isPlainObject(block)) continue;
    let next = moveBlock(block, `channels.${channel}`, warnings);
    if (isPlainObject(next.accounts)) {
      const accounts = Object.fromEntries(
        Object.entries(next.accounts).map(([id, account]) => [id, isPlainObject(account) ? moveBlock(account, `channels.${channel}.accounts.${id}`, warnings) : account]),
      );
      next = { ...next, accounts };
    }
    if (next !== block) {
      channels[channel] = next;
      changed = true;
    }
  }
  return changed ? { ...raw, channels } : raw;
}

function moveBlock(block: Record<string, unknown>, path: string, warnings: string[]): Record<string, unknown> {
  const scalar = typeof block.streaming === "string" || typeof block.streaming === "boolean" ? block.streaming : undefined;
  const flat = Object.keys(FLAT_KEYS).filter((key) => key in block);
  if (scalar === undefined && flat.length === 0) return block;
  const rest: Record<string, unknown> = { ...block };
  const streaming: Record<string, unknown> = isPlainObject(block.streaming) ? { ...block.streaming } : {};
  const put = (from: string, to: string[], value: unknown) => {
    const [head, leaf] = to.length === 2 ? [to[0]!, to[1]!] : [undefined, to[0]!];
    const owner: Record<string, unknown> = head ? (isPlainObject(streaming[head]) ? { ...(streaming[head] as Record<string, unknown>) } : {}) : streaming;
    const target = `${path}.streaming.${to.join(".")}`;
    if (owner[leaf] !== undefined) {
      warnings.push(`${path}.${from} is the older spelling of ${target}, which is set too: ${path}.${from} was ignored (remove it)`);
      return;
    }
    owner[leaf] = value;
    if (head) streaming[head] = owner;
    warnings.push(`${path}.${from} is the older spelling of ${target}: it was read as ${target} (move it there)`);
  };
  if (scalar !== undefined) put("streaming", ["mode"], typeof scalar === "boolean" ? (scalar ? "partial" : "off") : scalar);
  for (const key of flat) {
    put(key, FLAT_KEYS[key]!, rest[key]);
    delete rest[key];
  }
  return { ...rest, streaming };
}
