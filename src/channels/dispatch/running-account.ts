import type { BlockStreamingTraits, ChannelAccount, ChannelAccountStatus, ChannelLimits } from "../types.js";

/** One started bot account as the pipeline sees it. */
export interface RunningAccount {
  channel: string;
  accountId: string;
  /** The channel block merged with the account block. */
  config: Readonly<Record<string, unknown>>;
  account: ChannelAccount;
  limits: ChannelLimits;
  /** The platform's block streaming traits (its plugin's). */
  blockStreaming?: BlockStreamingTraits;
  status: ChannelAccountStatus;
}
