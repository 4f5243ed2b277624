const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
type Unit = keyof typeof UNIT_MS;

/**
 * The duration grammar, for the parser and for config schemas alike: parts such as `1h30m`,
 * units d, h, m, s, ms from largest to smallest, each at most once, at most 8 digits each (so
 * every total is a safe integer). Lower case, no spaces.
 */
export const DURATION_PATTERN = "^(?=\\d)(?:(?<d>\\d{1,8})d)?(?:(?<h>\\d{1,8})h)?(?:(?<m>\\d{1,8})m)?(?:(?<s>\\d{1,8})s)?(?:(?<ms>\\d{1,8})ms)?$";
const durationPattern = new RegExp(DURATION_PATTERN);

/** A duration such as `20m`, `90s`, `1h30m`, `2d` or `500ms` in milliseconds (case and surrounding spaces ignored); undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const groups = durationPattern.exec(text.trim().toLowerCase())?.groups;
  if (!groups) return undefined;
  let total = 0;
  for (const unit of Object.keys(UNIT_MS) as Unit[]) total += Number(groups[unit] ?? 0) * UNIT_MS[unit];
  return total;
}

/** `90000` → `1m30s`: how durations are shown back. */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  let rest = ms;
  const parts: string[] = [];
  for (const unit of Object.keys(UNIT_MS) as Unit[]) {
    const size = UNIT_MS[unit];
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join("");
}
