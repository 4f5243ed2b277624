import fs from "node:fs/promises";
import path from "node:path";

/** How much of the daily notes the first run after a reset is offered (`agents.defaults.startupContext`). */
export interface StartupNotesLimits {
  /** Today and the days before it. */
  days: number;
  /** Bytes read of each file. */
  maxFileBytes: number;
  /** Characters shown of each file. */
  maxFileChars: number;
  /** Characters shown of all of them together. */
  maxTotalChars: number;
}

/** OpenClaw's defaults: today and yesterday, 1,200 characters a file, 2,800 in all. */
export const DEFAULT_STARTUP_NOTES: StartupNotesLimits = { days: 2, maxFileBytes: 16_384, maxFileChars: 1_200, maxTotalChars: 2_800 };

/**
 * The recent daily notes (`memory/YYYY-MM-DD.md` and `-<slug>.md`), newest day first, as one
 * block for the first run after `/new` or `/reset`; undefined when there are none. A file longer
 * than its share is cut with a pointer to the rest. Days are local calendar days of the host.
 */
export async function dailyNotesForNewSession(workspaceDir: string, limits: StartupNotesLimits = DEFAULT_STARTUP_NOTES, now: Date = new Date()): Promise<string | undefined> {
  const days = Array.from({ length: limits.days }, (_, back) => localDay(new Date(now.getTime() - back * 86_400_000)));
  const dir = path.join(workspaceDir, "memory");
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const parts: string[] = [];
  let budget = limits.maxTotalChars;
  for (const day of days) {
    const matching = names.filter((name) => name === `${day}.md` || (name.startsWith(`${day}-`) && name.endsWith(".md"))).sort();
    for (const name of matching) {
      if (budget <= 0) break;
      const text = (await readHead(path.join(dir, name), limits.maxFileBytes)).trim();
      if (!text) continue;
      const room = Math.min(limits.maxFileChars, budget);
      const shown = text.length > room ? `${text.slice(0, room)}\n[… cut; read memory/${name} for the rest]` : text;
      budget -= Math.min(text.length, room);
      parts.push(`### memory/${name}\n${shown}`);
    }
  }
  if (parts.length === 0) return undefined;
  const span = limits.days === 1 ? "Today's notes" : limits.days === 2 ? "Today's and yesterday's notes" : `Notes of the last ${limits.days} days`;
  return `## Recent daily notes\n${span} from memory/, offered because this session just started:\n\n${parts.join("\n\n")}`;
}

/** The first `maxBytes` of a file as text (a cut character at the end dropped); empty when it cannot be read. */
async function readHead(file: string, maxBytes: number): Promise<string> {
  const handle = await fs.open(file, "r").catch(() => undefined);
  if (!handle) return "";
  try {
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    return buffer
      .subarray(0, bytesRead)
      .toString("utf8")
      .replace(/\uFFFD$/, "");
  } catch {
    return "";
  } finally {
    await handle.close();
  }
}

function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
