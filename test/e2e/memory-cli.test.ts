import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli, spawnCli } from "../helpers/gateway-process.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

let server: FakeModelServer;
let stateDir: string;
let workspace: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startFakeModelServer();
  stateDir = makeTempDir();
  workspace = path.join(stateDir, "workspace");
  const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${server.url}/v1`, apiKey: "sk-fake-embed" } } };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(server, stateDir, { memory }));
  fs.mkdirSync(path.join(workspace, "memory"), { recursive: true });
  env = { OPENCLAW_STATE_DIR: stateDir };
});
afterAll(async () => {
  await server.close();
});

const dbPath = () => path.join(stateDir, "memory", "main.sqlite");

describe("openclaw memory", () => {
  it("index, status and search work on the index directly", async () => {
    fs.writeFileSync(path.join(workspace, "MEMORY.md"), "# Memory\n\nThe staging database is called marlin.\n");
    fs.writeFileSync(path.join(workspace, "memory", "2026-11-30.md"), "- remember: the deploy key rotates on Tuesdays\n");
    const index = await runCli(["memory", "index"], env);
    expect(index.code).toBe(0);
    expect(index.output).toContain("Indexed 2 file(s)");

    const status = await runCli(["memory", "status", "--json"], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.output)).toMatchObject({ agentId: "main", files: 2, mode: "hybrid", provider: "fake", dims: 256, vectorBackend: "sqlite-vec", dirty: false });

    const search = await runCli(["memory", "search", "when is the credential cycled", "--json"], env);
    expect(search.code).toBe(0);
    const answer = JSON.parse(search.output);
    expect(answer.results[0]).toMatchObject({ path: "memory/2026-11-30.md", startLine: 1, endLine: 1 });

    const text = await runCli(["memory", "search", "staging database"], env);
    expect(text.output).toContain("MEMORY.md:1-3");
  });

  it("memory status in a later process lists the files the last index run skipped, with their reasons", async () => {
    const otherState = makeTempDir();
    const otherWorkspace = path.join(otherState, "workspace");
    fs.writeFileSync(path.join(otherState, "openclaw.json"), fakeModelConfig(server, otherState, { memory: { search: { provider: "none" } } }));
    fs.mkdirSync(path.join(otherWorkspace, "memory"), { recursive: true });
    fs.writeFileSync(path.join(otherWorkspace, "MEMORY.md"), "# Memory\n\nThe harbour opens at six.\n");
    fs.writeFileSync(path.join(otherWorkspace, "memory", "scan.md"), Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01]));
    const otherEnv = { OPENCLAW_STATE_DIR: otherState };
    const index = await runCli(["memory", "index"], otherEnv);
    expect(index.output).toContain("skipped 1");

    const status = await runCli(["memory", "status", "--json"], otherEnv);
    expect(JSON.parse(status.output)).toMatchObject({ files: 1, dirty: false, skipped: [{ path: "memory/scan.md", reason: expect.stringContaining("binary") }] });
    const text = await runCli(["memory", "status"], otherEnv);
    expect(text.output).toContain("Skipped: memory/scan.md: a binary file");

    // Once the file is fixed, the next run indexes it and status lists nothing.
    fs.writeFileSync(path.join(otherWorkspace, "memory", "scan.md"), "A scanned receipt.\n");
    await runCli(["memory", "index"], otherEnv);
    expect(JSON.parse((await runCli(["memory", "status", "--json"], otherEnv)).output)).toMatchObject({ files: 2, skipped: [] });
  });

  it("an unknown agent is a clear error", async () => {
    const result = await runCli(["memory", "status", "--agent", "nobody"], env);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('unknown agent "nobody"');
  });

  it("a kill -9 in the middle of indexing: the next run finishes and the index is consistent", async () => {
    const notes = 1500;
    for (let i = 0; i < notes; i++) {
      fs.writeFileSync(path.join(workspace, "memory", `topic-${String(i).padStart(4, "0")}.md`), `# Topic ${i}\n\nNote number ${i} about lighthouse keeper ${i % 37}.\n`);
    }
    const child = spawnCli(["memory", "index", "--force"], env);
    // Kill it once some, but not all, of the notes are in.
    for (;;) {
      const chunks = countChunks();
      if (chunks > 50 && chunks < notes) break;
      if (chunks >= notes) throw new Error("indexing finished before it could be interrupted; raise the note count");
      await new Promise((r) => setTimeout(r, 10));
    }
    child.proc.kill("SIGKILL");
    await child.exited;
    // Files deleted and changed while it was down.
    for (let i = 0; i < 100; i++) fs.rmSync(path.join(workspace, "memory", `topic-${String(i).padStart(4, "0")}.md`));
    fs.writeFileSync(path.join(workspace, "memory", "topic-1499.md"), "# Topic 1499\n\nRewritten after the crash.\n");

    const again = await runCli(["memory", "index"], env, 120_000);
    expect(again.code).toBe(0);
    const db = new Database(dbPath(), { readonly: true });
    try {
      const onDisk = new Set(["MEMORY.md", ...fs.readdirSync(path.join(workspace, "memory")).map((n) => `memory/${n}`)]);
      const files = (db.prepare("SELECT path FROM files").all() as { path: string }[]).map((r) => r.path);
      expect(new Set(files)).toEqual(onDisk);
      const chunkPaths = db.prepare("SELECT DISTINCT path FROM chunks").all() as { path: string }[];
      expect(chunkPaths.every((r) => onDisk.has(r.path))).toBe(true);
      expect(db.prepare("SELECT count(*) AS n FROM (SELECT path, start_line, end_line FROM chunks GROUP BY 1, 2, 3 HAVING count(*) > 1)").get()).toEqual({ n: 0 });
      const chunks = (db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
      expect(chunks).toBe(onDisk.size);
      expect((db.prepare("SELECT count(*) AS n FROM chunks_fts").get() as { n: number }).n).toBe(chunks);
      expect((db.prepare("SELECT count(*) AS n FROM chunks WHERE embedding IS NULL").get() as { n: number }).n).toBe(0);
      expect(db.prepare("SELECT text FROM chunks WHERE path = 'memory/topic-1499.md'").all()).toEqual([{ text: "# Topic 1499\n\nRewritten after the crash." }]);
    } finally {
      db.close();
    }
  }, 180_000);
});

function countChunks(): number {
  if (!fs.existsSync(dbPath())) return 0;
  try {
    const db = new Database(dbPath(), { readonly: true, timeout: 1000 });
    try {
      return (db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}
