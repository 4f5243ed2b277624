import path from "node:path";

/** `~` and `~/…` (also `~\\…`) under `home`; any other path as it is. */
export function expandHome(input: string, home: string): string {
  if (input === "~") return home;
  if (input.startsWith("~/") || input.startsWith("~\\")) return path.join(home, input.slice(2));
  return input;
}
