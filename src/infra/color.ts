/**
 * Whether output to `stream` may carry ANSI colour: only on a terminal, and never when NO_COLOR
 * is set to anything but the empty string (https://no-color.org) or FORCE_COLOR is `0`. The
 * global `--no-color` sets both (cli/root-options.ts).
 */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR === "0") return false;
  return stream.isTTY === true;
}
