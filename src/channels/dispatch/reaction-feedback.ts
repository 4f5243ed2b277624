import type { InboundReaction } from "../types.js";

/** A chat user's rating of a run, as `traces.feedback` takes it. */
export type ReactionRating = "up" | "down";

/** Where reactions' ratings of runs are recorded; absent: reactions rate nothing. */
export interface ReactionFeedbackPort {
  /** The person's rating of the run; `note` says who gave it, and identifies it for `retract`. */
  rate(runId: string, rating: ReactionRating, note: string): Promise<void>;
  /** The person took the reaction back: the rating goes, only while it is still the one given with `note`. */
  retract(runId: string, rating: ReactionRating, note: string): Promise<void>;
}

/** Unicode skin-tone modifiers (🏻…🏿) and Slack's `::skin-tone-N` suffix: a toned thumb is still a thumb. */
const SKIN_TONE = /[\u{1F3FB}-\u{1F3FF}]|::skin-tone-\d$/gu;

const RATINGS: Record<string, ReactionRating> = {
  "👍": "up",
  "+1": "up",
  thumbsup: "up",
  "👎": "down",
  "-1": "down",
  thumbsdown: "down",
};

/** 👍 (Slack `+1`, `thumbsup`) rates up, 👎 (Slack `-1`, `thumbsdown`) rates down; any other emoji rates nothing. */
export function ratingOfEmoji(emoji: string): ReactionRating | undefined {
  return RATINGS[emoji.replace(SKIN_TONE, "").replace(/\uFE0F/g, "")];
}

/**
 * What the feedback's note says: which reaction, by whom (their platform id, which names do not
 * change), on which message; never the message's text. The same reaction taken back makes the
 * same note, which is how a removal knows the rating is still that person's.
 */
export function reactionFeedbackNote(channel: string, reaction: InboundReaction): string {
  return `${reaction.emoji} reaction on ${channel} by user ${reaction.senderId} on msg ${reaction.messageId}`;
}
