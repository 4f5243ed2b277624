/**
 * A duration as OpenClaw's approvals table shows it, to the nearest unit: `just now` / `12m ago`
 * for how long ago (`ago`), `45s` / `20m` / `3h` / `2d` for how long until.
 */
export function roughDuration(ms: number, form: "ago" | "until"): string {
  const seconds = Math.round(Math.max(0, ms) / 1000);
  const minutes = Math.round(seconds / 60);
  const suffix = form === "ago" ? " ago" : "";
  if (minutes < 1) return form === "ago" ? "just now" : `${seconds}s`;
  if (minutes < 60) return `${minutes}m${suffix}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h${suffix}`;
  return `${Math.round(hours / 24)}d${suffix}`;
}

/** An argv as a shell line a person can read and paste: words that need it are single-quoted. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(" ");
}
