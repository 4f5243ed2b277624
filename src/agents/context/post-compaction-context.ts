import fs from "node:fs/promises";
import path from "node:path";
import { formatCurrentTime, zoneClockParts } from "./format-current-time.js";

/** `contextLimits.postCompactionMaxChars` when unset: the most of AGENTS.md one refresh carries. */
export const DEFAULT_POST_COMPACTION_MAX_CHARS = 1800;

/** The sections OpenClaw's default AGENTS.md has, and their names in older templates (tried when the new ones are missing). */
const DEFAULT_SECTIONS = ["Session Startup", "Red Lines"];
const OLDER_DEFAULT_SECTIONS = ["Every Session", "Safety"];

/** An AGENTS.md larger than this is not read for a refresh. */
const MAX_AGENTS_FILE_BYTES = 2 * 1024 * 1024;

export interface PostCompactionOptions {
  /** `agents.defaults.compaction.postCompactionSections`: the H2/H3 headings to carry, matched without regard to case. */
  sections: readonly string[];
  maxChars: number;
  now: Date;
  timeZone: string;
}

/**
 * After a compaction the summary is all the model has of the conversation's start, where it read
 * its startup rules: this is the notice that brings them back, the named sections of the
 * workspace's AGENTS.md (`YYYY-MM-DD` in them as today's date), cut to `maxChars`, with the
 * current time. Undefined when no section is configured, AGENTS.md is missing, too large or
 * unreadable, or has none of the sections.
 */
export async function postCompactionRefresh(workspaceDir: string, options: PostCompactionOptions): Promise<string | undefined> {
  if (options.sections.length === 0) return undefined;
  const content = await readAgentsFile(workspaceDir);
  if (content === undefined) return undefined;
  const isDefault = sameNames(options.sections, DEFAULT_SECTIONS);
  let found = extractSections(content, options.sections);
  if (found.length === 0 && isDefault) found = extractSections(content, OLDER_DEFAULT_SECTIONS);
  if (found.length === 0) return undefined;
  const names = found.map((section) => section.name).join(", ");
  const today = dateStamp(options.now, options.timeZone);
  const combined = found
    .map((section) => section.text)
    .join("\n\n")
    .replaceAll("YYYY-MM-DD", today);
  const shown = combined.length > options.maxChars ? `${combined.slice(0, options.maxChars)}\n...[truncated]...` : combined;
  const instruction = isDefault
    ? "Session was just compacted. The conversation summary above is a hint, NOT a substitute for your startup sequence. Run your Session Startup sequence - read the required files before responding to the user."
    : `Session was just compacted. The conversation summary above is a hint, NOT a substitute for your full startup sequence. Re-read the sections injected below (${names}) and follow your configured startup procedure before responding to the user.`;
  const heading = isDefault ? "Critical rules from AGENTS.md:" : `Injected sections from AGENTS.md (${names}):`;
  const utc = options.now.toISOString().replace("T", " ").slice(0, 16);
  return `[Post-compaction context refresh]\n\n${instruction}\n\n${heading}\n\n${shown}\n\nCurrent time: ${formatCurrentTime(options.now, options.timeZone)}\nReference UTC: ${utc} UTC`;
}

async function readAgentsFile(workspaceDir: string): Promise<string | undefined> {
  const file = path.join(workspaceDir, "AGENTS.md");
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > MAX_AGENTS_FILE_BYTES) return undefined;
    return await fs.readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Each named section that exists, in the order named: its H2 or H3 heading line and everything
 * up to the next H2/H3 heading of the same or a higher level (H1 and H4+ lines are its text).
 * Headings inside fenced code blocks do not count.
 */
export function extractSections(content: string, names: readonly string[]): { name: string; text: string }[] {
  const lines = content.split("\n");
  const found: { name: string; text: string }[] = [];
  for (const name of names) {
    const wanted = name.trim().toLowerCase();
    let collected: string[] | undefined;
    let level = 0;
    let inFence = false;
    for (const line of lines) {
      if (line.trimStart().startsWith("```")) {
        inFence = !inFence;
        collected?.push(line);
        continue;
      }
      const heading = inFence ? null : /^(#{2,3})\s+(.+?)\s*$/.exec(line);
      if (heading && !collected && heading[2]!.toLowerCase() === wanted) {
        collected = [line];
        level = heading[1]!.length;
        continue;
      }
      if (heading && collected && heading[1]!.length <= level) break;
      collected?.push(line);
    }
    if (collected) found.push({ name, text: collected.join("\n").trim() });
  }
  return found;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const norm = (list: readonly string[]) => list.map((s) => s.trim().toLowerCase()).sort();
  const other = norm(b);
  return a.length === b.length && norm(a).every((name, i) => name === other[i]);
}

/** Today's date in `timeZone` as YYYY-MM-DD (UTC for an unknown zone). */
function dateStamp(now: Date, timeZone: string): string {
  let clock;
  try {
    clock = zoneClockParts(now, timeZone);
  } catch {
    return now.toISOString().slice(0, 10);
  }
  return `${clock.year}-${String(clock.month).padStart(2, "0")}-${String(clock.day).padStart(2, "0")}`;
}
