import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProgressCardRefusal, ProgressCardStore, type ProgressCard } from "../../../src/sessions/progress-card/index.js";
import { SessionStore } from "../../../src/sessions/store/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "progress-card-"));
  dirs.push(dir);
  const sessions = new SessionStore(dir);
  const changes: [string, ProgressCard | null][] = [];
  let now = 1_000;
  const cards = new ProgressCardStore({ sessions, onChanged: (key, card) => changes.push([key, card]), now: () => now++ });
  return { dir, sessions, cards, changes };
}

const KEY = "agent:main:work";

describe("ProgressCardStore", () => {
  it("replaces the whole card on each write, counts revisions on through a clear, and tells onChanged", async () => {
    const { sessions, cards, changes } = setup();
    sessions.ensure(KEY);
    expect(cards.read(KEY)).toBeNull();
    expect(await cards.write(KEY, "main", { steps: [{ step: "a", status: "in_progress" }], markdown: "note" })).toEqual({
      revision: 1,
      updatedAt: 1_000,
      steps: [{ step: "a", status: "in_progress" }],
      markdown: "note",
    });
    // Omitting the note removes it: a write is a replacement, not a patch.
    expect(await cards.write(KEY, "main", { steps: [{ step: "a", status: "completed" }] })).toEqual({ revision: 2, updatedAt: 1_001, steps: [{ step: "a", status: "completed" }] });
    expect(await cards.write(KEY, "main", {})).toBeNull();
    expect(cards.read(KEY)).toBeNull();
    expect((await cards.write(KEY, "main", { markdown: "again" }))?.revision).toBe(4);
    expect(changes.map(([key, card]) => [key, card?.revision ?? null])).toEqual([
      [KEY, 1],
      [KEY, 2],
      [KEY, null],
      [KEY, 4],
    ]);
    sessions.close();
  });

  it("writes nothing to clear a session that shows no card", async () => {
    const { sessions, cards, changes } = setup();
    sessions.ensure(KEY);
    expect(await cards.write(KEY, "main", {})).toBeNull();
    expect(sessions.get(KEY)?.progressCard).toBeUndefined();
    expect(changes).toEqual([]);
    sessions.close();
  });

  it("is on disk in sessions.json when the write resolves, and a full reset clears it one revision on", async () => {
    const { dir, sessions, cards } = setup();
    sessions.ensure(KEY);
    await cards.write(KEY, "main", { markdown: "kept" });
    const onDisk = JSON.parse(fs.readFileSync(path.join(dir, "agents", "main", "sessions", "sessions.json"), "utf8"));
    expect(JSON.stringify(onDisk)).toContain('"markdown":"kept"');
    sessions.reset(KEY);
    expect(cards.read(KEY)).toBeNull();
    expect(sessions.get(KEY)?.progressCard?.revision).toBe(2);
    expect((await cards.write(KEY, "main", { markdown: "next task" }))?.revision).toBe(3);
    sessions.close();
  });

  it("refuses a missing session, another agent's session and a one-off session, storing nothing", async () => {
    const { sessions, cards } = setup();
    await expect(cards.write(KEY, "main", { markdown: "x" })).rejects.toThrow(ProgressCardRefusal);
    sessions.ensure(KEY);
    await expect(cards.write(KEY, "other", { markdown: "x" })).rejects.toThrow('belongs to agent "main"');
    sessions.ensureOneOff("agent:main:openai-once");
    await expect(cards.write("agent:main:openai-once", "main", { markdown: "x" })).rejects.toThrow("one-off");
    expect(cards.read(KEY)).toBeNull();
    sessions.close();
  });
});
