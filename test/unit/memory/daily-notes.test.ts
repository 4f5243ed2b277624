import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dailyNotesForNewSession, DEFAULT_STARTUP_NOTES } from "../../../src/memory/daily-notes.js";

const NOW = new Date(2026, 11, 4, 12, 0, 0);

function workspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "daily-notes-"));
  fs.mkdirSync(path.join(dir, "memory"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, "memory", name), text);
  return dir;
}

describe("dailyNotesForNewSession", () => {
  it("defaults: today's and yesterday's notes, newest first; older days and other files are left out", async () => {
    const dir = workspace({ "2026-12-04.md": "today", "2026-12-03-standup.md": "yesterday", "2026-12-02.md": "too old", "MEMORY.md": "not daily" });
    const block = await dailyNotesForNewSession(dir, DEFAULT_STARTUP_NOTES, NOW);
    expect(block).toBe(
      "## Recent daily notes\nToday's and yesterday's notes from memory/, offered because this session just started:\n\n### memory/2026-12-04.md\ntoday\n\n### memory/2026-12-03-standup.md\nyesterday",
    );
    expect(await dailyNotesForNewSession(workspace({}), DEFAULT_STARTUP_NOTES, NOW)).toBeUndefined();
  });

  it("maxTotalChars shares the room across files; what does not fit is cut with a pointer, and later files are left out", async () => {
    const dir = workspace({ "2026-12-04.md": "a".repeat(30), "2026-12-03-a.md": "b".repeat(30), "2026-12-03-b.md": "c".repeat(30) });
    const block = (await dailyNotesForNewSession(dir, { ...DEFAULT_STARTUP_NOTES, maxTotalChars: 45 }, NOW))!;
    expect(block).toContain(`### memory/2026-12-04.md\n${"a".repeat(30)}\n\n`);
    expect(block).toContain(`### memory/2026-12-03-a.md\n${"b".repeat(15)}\n[… cut; read memory/2026-12-03-a.md for the rest]`);
    expect(block).not.toContain("2026-12-03-b.md");
  });

  it("reads at most maxFileBytes of a file, never ending in half a character", async () => {
    const dir = workspace({ "2026-12-04.md": `${"é".repeat(10)}tail` });
    const block = (await dailyNotesForNewSession(dir, { ...DEFAULT_STARTUP_NOTES, maxFileBytes: 5 }, NOW))!;
    expect(block.endsWith("### memory/2026-12-04.md\néé")).toBe(true);
  });
});
