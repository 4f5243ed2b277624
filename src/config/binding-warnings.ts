import { formatKeyPath } from "./key-path.js";
import { ChannelsSchema } from "./schema/channels.js";
import type { RawOpenClawConfig } from "./schema/index.js";

const CHANNELS = Object.keys(ChannelsSchema.properties);

/**
 * OpenClaw configs carry bindings for channels this gateway does not have (whatsapp, signal …):
 * they still load, and the warning says such a binding never matches.
 */
export function bindingWarnings(config: RawOpenClawConfig): string[] {
  const warnings: string[] = [];
  config.bindings?.forEach((binding, index) => {
    const channel = binding.match.channel;
    if (CHANNELS.includes(channel.trim().toLowerCase())) return;
    const path = formatKeyPath(["bindings", index, "match", "channel"]);
    warnings.push(`${path}: "${channel}" is not a channel of this gateway (${CHANNELS.join(", ")}), so this binding never matches`);
  });
  return warnings;
}
