import type { ChannelManager, SendParams } from "../../channels/channel-manager.js";
import { ChannelSendRefused } from "../../channels/send-errors.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";

/** The running channels, or the error a method answers while no channel is configured. */
export function requireChannels(channels: () => ChannelManager | undefined): ChannelManager {
  const manager = channels();
  if (!manager) throw unavailable("no channel is configured (add a channels.telegram, channels.discord or channels.slack block)");
  return manager;
}

/** One direct delivery (the `send` method, `message.action` send): a refusal or failure is the caller's INVALID_REQUEST with the reason. */
export async function sendThroughChannels(channels: () => ChannelManager | undefined, params: SendParams): ReturnType<ChannelManager["send"]> {
  const manager = requireChannels(channels);
  try {
    return await manager.send(params);
  } catch (err) {
    if (err instanceof ChannelSendRefused) throw invalidRequest(err.message);
    throw invalidRequest(`send failed: ${(err as Error).message}`);
  }
}
