import type { OpenClawConfig } from "../../config/index.js";

/** Which implied facts count as a mention of the bot where mention gating applies. */
export interface ImplicitMentions {
  /** A reply to one of the bot's messages (a thread the bot started, on Slack). */
  replyToBot: boolean;
  /** A message in a thread the bot has posted in. */
  threadParticipation: boolean;
}

type Overrides = Partial<ImplicitMentions>;

const ALL: ImplicitMentions = Object.freeze({ replyToBot: true, threadParticipation: true });

/** Only an explicit mention counts (`allowBots: "mentions"`): a reply or a shared thread is not one. */
export const EXPLICIT_ONLY: ImplicitMentions = Object.freeze({ replyToBot: false, threadParticipation: false });

/** The channels that read `implicitMentions`, as OpenClaw's bundled ones: elsewhere every fact counts. */
const READ_BY = new Set(["slack"]);

/**
 * `implicitMentions` for one account: each flag from the account, else the channel, else
 * `channels.defaults`, else true (OpenClaw's resolution). Channels that do not read the setting
 * count every fact.
 */
export function implicitMentionsFor(config: OpenClawConfig, channel: string, accountId: string): ImplicitMentions {
  if (!READ_BY.has(channel)) return ALL;
  const block = (config.channels as Record<string, { implicitMentions?: Overrides; accounts?: Record<string, { implicitMentions?: Overrides }> } | undefined> | undefined)?.[
    channel
  ];
  const layers = [block?.accounts?.[accountId]?.implicitMentions, block?.implicitMentions, config.channels?.defaults?.implicitMentions];
  const flag = (key: keyof ImplicitMentions) => layers.find((layer) => layer?.[key] !== undefined)?.[key] ?? true;
  return { replyToBot: flag("replyToBot"), threadParticipation: flag("threadParticipation") };
}
