/**
 * A session's progress card (OpenClaw's `progress_card`): one ordered step plan, one compact
 * Markdown note, or both. Every write replaces the whole card and bumps its revision; a write
 * with neither clears it. It lives on the session's entry in `sessions.json` (`progressCard`).
 */

export const PROGRESS_CARD_STEP_STATUSES = ["pending", "in_progress", "completed"] as const;
export type ProgressCardStepStatus = (typeof PROGRESS_CARD_STEP_STATUSES)[number];

export interface ProgressCardStep {
  step: string;
  status: ProgressCardStepStatus;
}

/** The card as clients read it (OpenClaw's ProgressCard, without the session key the gateway adds). */
export interface ProgressCard {
  /** 1 for the session's first card; every write and clear after it adds one. */
  revision: number;
  /** Epoch ms of the write. */
  updatedAt: number;
  markdown?: string;
  steps?: ProgressCardStep[];
}

/**
 * What the session entry holds: the card, or after a clear only its revision and time (a
 * tombstone), so the next card's revision keeps counting up and a client never sees an old
 * revision number come back with other content.
 */
export type StoredProgressCard = ProgressCard;

/** The content of one write, already checked and cleaned: neither part means "clear". */
export interface ProgressCardContent {
  markdown?: string;
  steps?: ProgressCardStep[];
}

/** The card a stored value shows: none for a tombstone or nothing stored. */
export function visibleProgressCard(stored: StoredProgressCard | undefined): ProgressCard | null {
  if (!stored || (stored.markdown === undefined && stored.steps === undefined)) return null;
  return { ...stored };
}

/** The value to store for a write at `now`: the content with the next revision (a tombstone when the content is empty). */
export function nextProgressCard(previous: StoredProgressCard | undefined, content: ProgressCardContent, now: number): StoredProgressCard {
  return {
    revision: (previous?.revision ?? 0) + 1,
    updatedAt: now,
    ...(content.markdown !== undefined ? { markdown: content.markdown } : {}),
    ...(content.steps !== undefined ? { steps: content.steps } : {}),
  };
}

/** Completed and total steps, or null for a card without a plan. */
export function progressCardCounts(card: ProgressCard | null): { completed: number; total: number } | null {
  if (!card?.steps) return null;
  return { completed: card.steps.filter((s) => s.status === "completed").length, total: card.steps.length };
}

/**
 * What a full reset leaves of the card: a shown card becomes a tombstone one revision on (the
 * previous task's card is gone), a tombstone stays as it is, and nothing stays nothing.
 */
export function clearedOnReset(stored: StoredProgressCard | undefined, now: number): StoredProgressCard | undefined {
  if (!stored) return undefined;
  return visibleProgressCard(stored) ? nextProgressCard(stored, {}, now) : stored;
}
