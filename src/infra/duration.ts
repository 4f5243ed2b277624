const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A duration such as `20m`, `90s`, `1h30m`, `2d` or `500ms` in milliseconds; undefined when the
 * text is not one. Units: ms, s, m, h, d; parts from largest to smallest, each unit once.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (!/^(\d+(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  let lastUnit = Infinity;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)) {
    const size = UNIT_MS[unit as keyof typeof UNIT_MS];
    if (size >= lastUnit) return undefined;
    lastUnit = size;
    total += Number(amount) * size;
  }
  return Number.isSafeInteger(total) ? total : undefined;
}

/** `90000` → `1m30s`: how durations are shown back. */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  let rest = ms;
  const parts: string[] = [];
  for (const unit of ["d", "h", "m", "s", "ms"] as const) {
    const size = UNIT_MS[unit];
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join("");
}
