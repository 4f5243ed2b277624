import type { InboundReaction } from "../types.js";

/** A chat user's rating of a run, as `traces.feedback` takes it. */
export type ReactionRating = "up" | "down";

/** Records a rating of a run on behalf of the person who reacted; absent: reactions rate nothing. */
export type ReactionFeedbackPort = (runId: string, rating: ReactionRating, note: string) => Promise<void>;

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

/** What the feedback's note says: who rated, where (never a message's text). */
export function reactionFeedbackNote(channel: string, reaction: InboundReaction): string {
  return `${reaction.emoji} reaction on ${channel} by ${reaction.senderUsername ? `@${reaction.senderUsername}` : `id:${reaction.senderId}`} on msg ${reaction.messageId}`;
}
