import fs from "node:fs/promises";
import path from "node:path";

/** What the notes offered on `/new` may add to a prompt, in total. */
const MAX_CHARS = 8_000;

/**
 * Today's and yesterday's daily notes (`memory/YYYY-MM-DD.md` and `-<slug>.md`), newest day
 * first, as one block for the first turn after `/new`; undefined when there are none. Days are
 * local calendar days of the host.
 */
export async function dailyNotesForNewSession(workspaceDir: string, now: Date = new Date()): Promise<string | undefined> {
  const days = [localDay(now), localDay(new Date(now.getTime() - 86_400_000))];
  const dir = path.join(workspaceDir, "memory");
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const parts: string[] = [];
  let budget = MAX_CHARS;
  for (const day of days) {
    const matching = names.filter((name) => name === `${day}.md` || (name.startsWith(`${day}-`) && name.endsWith(".md"))).sort();
    for (const name of matching) {
      const text = (await fs.readFile(path.join(dir, name), "utf8").catch(() => "")).trim();
      if (!text || budget <= 0) continue;
      const shown = text.length > budget ? `${text.slice(0, budget)}\n[… cut; read memory/${name} for the rest]` : text;
      budget -= shown.length;
      parts.push(`### memory/${name}\n${shown}`);
    }
  }
  if (parts.length === 0) return undefined;
  return `## Recent daily notes\nToday's and yesterday's notes from memory/, offered because this session just started:\n\n${parts.join("\n\n")}`;
}

function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
