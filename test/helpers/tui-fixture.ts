import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Frame } from "./ws-client.js";

/** The request frames OpenClaw's TUI sent in one recorded session: `test/fixtures/tui/<name>`, one JSON frame a line. */
export function readTuiFrames(name: string): Frame[] {
  const file = fileURLToPath(new URL(`../fixtures/tui/${name}`, import.meta.url));
  return fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}
