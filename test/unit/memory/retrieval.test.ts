import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { RawOpenClawConfig } from "../../../src/config/index.js";
import { MemoryService } from "../../../src/memory/index.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";

/**
 * The retrieval set in test/fixtures/memory: 44 notes, 30 questions, each with the file that
 * answers it. Keyword-only search (FTS5 BM25) and hybrid search (0.7 vector + 0.3 BM25) run over
 * the same index code; only the embeddings differ.
 *
 * The embeddings come from the fake model server's `/v1/embeddings`: feature hashing over word
 * concepts, where a small general thesaurus folds synonyms and inflections into one concept
 * ("cycled" and "rotates" → rotate), plus character trigrams. That is the one thing a real
 * embedding model adds over BM25 that this set can measure honestly: a question worded
 * differently from its note still lands near it. The fake knows nothing of the fixture files or
 * the questions; about half the questions share words with their note and half do not, so
 * keyword search is not set up to score zero, and hybrid must still find the lexical ones.
 */
const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/memory");
const { now, queries } = JSON.parse(fs.readFileSync(path.join(FIXTURES, "queries.json"), "utf8")) as { now: string; queries: { query: string; expected: string }[] };

let server: FakeModelServer;
let root: string;

beforeAll(async () => {
  server = await startFakeModelServer();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "memory-retrieval-"));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function evaluate(name: string, search: Record<string, unknown>): Promise<{ hit1: number; hit6: number; misses: string[] }> {
  const workspace = path.join(root, name, "workspace");
  fs.cpSync(path.join(FIXTURES, "workspace"), workspace, { recursive: true });
  const config = applyDefaults({ memory: { search } } as RawOpenClawConfig);
  const memory = new MemoryService({
    stateDir: path.join(root, name, "state"),
    config: () => config,
    env: {},
    watch: false,
    workspaceDirOf: () => workspace,
    logger: { warn() {}, info() {}, debug() {} } as never,
    now: () => new Date(now),
  });
  try {
    await memory.sync("main");
    let hit1 = 0;
    let hit6 = 0;
    const misses: string[] = [];
    for (const { query, expected } of queries) {
      const answer = await memory.search("main", query, { maxResults: 6 });
      const paths = answer.results.map((r) => r.path);
      if (paths[0] === expected) hit1++;
      if (paths.includes(expected)) hit6++;
      else misses.push(query);
    }
    return { hit1: hit1 / queries.length, hit6: hit6 / queries.length, misses };
  } finally {
    await memory.close();
  }
}

describe("retrieval quality on the fixture set", () => {
  it("hybrid search beats keyword-only search", async () => {
    expect(fs.readdirSync(path.join(FIXTURES, "workspace", "memory"), { recursive: true }).filter((f) => String(f).endsWith(".md")).length + 2).toBeGreaterThanOrEqual(40);
    expect(queries.length).toBeGreaterThanOrEqual(20);
    const fts = await evaluate("fts", { provider: "none" });
    const hybrid = await evaluate("hybrid", { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${server.url}/v1` } });
    const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
    console.log(
      `memory retrieval (${queries.length} queries): FTS-only hit@1 ${pct(fts.hit1)} hit@6 ${pct(fts.hit6)}; hybrid hit@1 ${pct(hybrid.hit1)} hit@6 ${pct(hybrid.hit6)}\n` +
        `  FTS-only misses: ${fts.misses.join(" | ") || "none"}\n  hybrid misses: ${hybrid.misses.join(" | ") || "none"}`,
    );
    expect(hybrid.hit1).toBeGreaterThan(fts.hit1);
    expect(hybrid.hit6).toBeGreaterThan(fts.hit6);
  }, 60_000);
});
