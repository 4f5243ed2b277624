import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryGetTool } from "../../../src/agents/tools/memory-get.js";
import { memoryFixture, type MemoryFixture } from "./helpers.js";

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe("memory_get's reader", () => {
  it("reads a window of lines, 120 by default, and says where to continue", async () => {
    fixture = memoryFixture();
    fixture.write("memory/2026-11-30.md", `${Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join("\n")}\n`);
    const first = await fixture.service.get("main", "memory/2026-11-30.md");
    expect(first).toMatchObject({ ok: true, result: { path: "memory/2026-11-30.md", from: 1, to: 120, totalLines: 300, truncated: true } });
    const slice = await fixture.service.get("main", "memory/2026-11-30.md", 299, 10);
    expect(slice).toMatchObject({ ok: true, result: { from: 299, to: 300, text: "line 299\nline 300", truncated: false } });
    expect(await fixture.service.get("main", "memory/2026-11-30.md", 400)).toMatchObject({ ok: false, refusal: "offset-out-of-range", from: 400, totalLines: 300 });
  });

  it("caps an answer at 12,000 characters", async () => {
    fixture = memoryFixture();
    fixture.write("MEMORY.md", Array.from({ length: 100 }, () => "x".repeat(500)).join("\n"));
    const answer = await fixture.service.get("main", "MEMORY.md");
    expect(answer.ok && answer.result.text.length).toBeLessThanOrEqual(12_000);
    expect(answer.ok && answer.result.truncated).toBe(true);
  });

  it("tells the model the cap in its description", () => {
    expect(createMemoryGetTool().description).toContain("at most 12,000 characters");
  });

  it("refuses files that are not memory files, paths that leave the workspace and symlinks that lead out", async () => {
    fixture = memoryFixture();
    fixture.write("AGENTS.md", "Not memory.\n");
    fixture.write("memory/notes.txt", "Not Markdown.\n");
    const outside = path.join(fixture.root, "secret.md");
    fs.writeFileSync(outside, "outside\n");
    fs.symlinkSync(outside, path.join(fixture.workspace, "memory", "link.md"));
    for (const requested of ["AGENTS.md", "memory/notes.txt", "../secret.md", outside, "memory/link.md"]) {
      expect(await fixture.service.get("main", requested)).toMatchObject({ ok: false, refusal: "not-a-memory-file" });
    }
    expect(await fixture.service.get("main", "memory/none.md")).toMatchObject({ ok: false, refusal: "not-found" });
  });

  it("refuses a hard-linked memory file (a second name for a file outside) and a FIFO, without reading either", async () => {
    fixture = memoryFixture();
    const outside = path.join(fixture.root, "id_ed25519");
    fs.writeFileSync(outside, "PRIVATE KEY outside the workspace\n");
    fs.linkSync(outside, path.join(fixture.workspace, "memory", "key.md"));
    const linked = await fixture.service.get("main", "memory/key.md");
    expect(linked).toMatchObject({ ok: false, refusal: "unreadable", reason: expect.stringContaining("2 hard links") });
    expect(JSON.stringify(linked)).not.toContain("PRIVATE KEY");
    execFileSync("mkfifo", [path.join(fixture.workspace, "memory", "pipe.md")]);
    expect(await fixture.service.get("main", "memory/pipe.md")).toMatchObject({ ok: false, refusal: "unreadable", reason: "not a regular file" });
  });
});
