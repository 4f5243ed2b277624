import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isCronRunSessionKey } from "../../../../src/sessions/keys/index.js";
import { selectArchives } from "../../../../src/sessions/store/archive-sweep.js";

const header = (sessionKey: string) => `${JSON.stringify({ type: "session", version: 3, id: "x", timestamp: "", cwd: "/", sessionKey, agentId: "main" })}\n{"type":"message"}\n`;

describe("selectArchives", () => {
  it("selects archives of the kinds asked, made before the time asked, whose header key matches; never a live transcript", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "archive-sweep-"));
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
    write("a.jsonl.reset.2026-01-01T10-00-00.000Z", header("agent:main:cron:nightly"));
    write("b.jsonl.reset.2026-01-01T10-00-00.000Z.1", header("agent:main:cron:nightly"));
    write("c.jsonl.reset.2026-06-01T10-00-00.000Z", header("agent:main:cron:nightly"));
    write("d.jsonl.deleted.2026-01-01T10-00-00.000Z", header("agent:main:cron:nightly"));
    write("e.jsonl.reset.2026-01-01T10-00-00.000Z", header("agent:main:main"));
    write("f.jsonl.reset.2026-01-01T10-00-00.000Z", "not json\n");
    write("g.jsonl", header("agent:main:cron:nightly"));
    write("sessions.json", "{}");
    const selected = selectArchives(dir, { kinds: ["reset"], before: Date.parse("2026-03-01T00:00:00Z"), keyMatches: isCronRunSessionKey });
    expect(selected.map((file) => path.basename(file)).sort()).toEqual(["a.jsonl.reset.2026-01-01T10-00-00.000Z", "b.jsonl.reset.2026-01-01T10-00-00.000Z.1"]);
    expect(selectArchives(path.join(dir, "missing"), { kinds: ["reset"], before: Date.now(), keyMatches: () => true })).toEqual([]);
  });

  it("reads each old archive's key through keyOf, so a caller can remember what it read; newer archives are not read", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "archive-sweep-"));
    fs.writeFileSync(path.join(dir, "a.jsonl.reset.2026-01-01T10-00-00.000Z"), header("agent:main:main"));
    fs.writeFileSync(path.join(dir, "b.jsonl.reset.2026-06-01T10-00-00.000Z"), header("agent:main:cron:x"));
    const read: string[] = [];
    const keyOf = (file: string) => {
      read.push(path.basename(file));
      return "agent:main:cron:x";
    };
    expect(selectArchives(dir, { kinds: ["reset"], before: Date.parse("2026-03-01T00:00:00Z"), keyMatches: isCronRunSessionKey }, keyOf)).toEqual([
      path.join(dir, "a.jsonl.reset.2026-01-01T10-00-00.000Z"),
    ]);
    expect(read).toEqual(["a.jsonl.reset.2026-01-01T10-00-00.000Z"]);
  });

  it("isCronRunSessionKey is a cron job's own session only", () => {
    expect(isCronRunSessionKey("agent:main:cron:nightly")).toBe(true);
    expect(isCronRunSessionKey("agent:ops:cron:3049800e-3c40-40c9-9b94-1444be8782c3")).toBe(true);
    for (const key of ["agent:main:main", "cron:nightly", "agent:main:cron:nightly:run:x", "agent:main:telegram:direct:cron"]) expect(isCronRunSessionKey(key)).toBe(false);
  });
});
