/** A `sessions.list` row, the fields a resume choice is made from. */
export interface ResumeSessionRow {
  key: string;
  sessionId?: string;
  updatedAt?: number;
  label?: string;
  displayName?: string;
  derivedTitle?: string;
  lastMessagePreview?: string;
}

/** One session offered to resume: its key, how it is shown, and the names a query matches. */
export interface ResumeChoice {
  key: string;
  /** `<title> (<rest of the key>)`, or the rest of the key when the session has no title. */
  title: string;
  /** When it was last active and its last message, for the picker. */
  detail: string;
  /** Title, display name, label, session id and key, joined: what a query is matched against. */
  matchText: string;
}

export type ResumeResolution = { kind: "match"; choice: ResumeChoice } | { kind: "ambiguous"; candidates: ResumeChoice[] } | { kind: "none" };

export function resumeChoices(rows: readonly ResumeSessionRow[], now = Date.now()): ResumeChoice[] {
  return rows.map((row) => {
    const shortKey = keyRest(row.key);
    const name = row.derivedTitle ?? row.displayName;
    const preview = row.lastMessagePreview?.replace(/\s+/g, " ").trim();
    const when = row.updatedAt ? relativeTime(row.updatedAt, now) : "";
    return {
      key: row.key,
      title: name && name !== shortKey ? `${name} (${shortKey})` : shortKey,
      detail: [when, preview].filter(Boolean).join(" · "),
      matchText: [row.derivedTitle, row.displayName, row.label, row.sessionId, row.key].filter(Boolean).join(" "),
    };
  });
}

/**
 * The session a query names: an exact key wins; else the sessions whose names contain the query
 * (ignoring case); when none does, the fuzzy matches (every word of the query, its characters in
 * order, best first). One match is the session; several are ambiguous.
 */
export function resolveResumeQuery(choices: readonly ResumeChoice[], query: string): ResumeResolution {
  const wanted = query.trim();
  const exact = choices.find((choice) => choice.key === wanted);
  if (exact) return { kind: "match", choice: exact };
  const lower = wanted.toLowerCase();
  const containing = choices.filter((choice) => choice.matchText.toLowerCase().includes(lower));
  const matches = containing.length > 0 ? containing : fuzzyMatches(choices, wanted);
  if (matches.length === 1) return { kind: "match", choice: matches[0] };
  if (matches.length > 1) return { kind: "ambiguous", candidates: matches };
  return { kind: "none" };
}

/** How a candidate is listed: `<title> [<key>]`, or the key alone when that is its title. */
export function candidateLine(choice: ResumeChoice): string {
  return choice.title === choice.key ? choice.key : `${choice.title} [${choice.key}]`;
}

/** The choices every word of `query` fuzzy-matches, best (lowest score) first. */
export function fuzzyMatches(choices: readonly ResumeChoice[], query: string): ResumeChoice[] {
  const words = query
    .trim()
    .toLowerCase()
    .split(/[\s/]+/)
    .filter(Boolean);
  if (words.length === 0) return [...choices];
  const scored: { choice: ResumeChoice; score: number }[] = [];
  for (const choice of choices) {
    const text = choice.matchText.toLowerCase();
    let total = 0;
    let all = true;
    for (const word of words) {
      const score = subsequenceScore(word, text);
      if (score === undefined) {
        all = false;
        break;
      }
      total += score;
    }
    if (all) scored.push({ choice, score: total });
  }
  return scored.sort((a, b) => a.score - b.score).map((entry) => entry.choice);
}

/**
 * Undefined when `word`'s characters do not all appear in `text` in order; else a score, lower
 * for runs of adjacent characters, characters at the start of a word, and an early match.
 */
function subsequenceScore(word: string, text: string): number | undefined {
  let at = 0;
  let score = 0;
  let previous = -2;
  let run = 0;
  for (let i = 0; i < text.length && at < word.length; i++) {
    if (text[i] !== word[at]) continue;
    if (i === previous + 1) {
      run++;
      score -= run * 5;
    } else {
      run = 0;
      if (previous >= 0) score += (i - previous - 1) * 2;
    }
    if (i === 0 || /[\s\-_./:]/.test(text[i - 1])) score -= 10;
    score += i * 0.1;
    previous = i;
    at++;
  }
  return at === word.length ? score : undefined;
}

function keyRest(key: string): string {
  const match = /^agent:[^:]+:(.+)$/.exec(key);
  return match ? match[1] : key;
}

function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.round(hours / 24)}d ago`;
}
