import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryUnavailableError } from "../../../src/memory/index.js";
import { fakeEmbeddingSearch, useMemoryTest } from "./helpers.js";

const memory = useMemoryTest();

describe("memory: files that are not indexed", () => {
  it("skips binary, oversized (50 MB), non-UTF-8, empty files and symlinks out of the workspace, with logged reasons", async () => {
    const fixture = memory.open();
    fixture.write("memory/good.md", "A good note about the lighthouse.\n");
    fixture.write("memory/binary.md", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a, 0x0a, 0x6c, 0x69, 0x67, 0x68, 0x74]));
    const huge = fixture.write("memory/huge.md", "lighthouse\n");
    fs.truncateSync(huge, 50 * 1024 * 1024); // sparse: 50 MB on paper, nothing written
    fixture.write("memory/latin1.md", Buffer.from("lighthouse caf\xe9 \xff\xfe", "latin1"));
    fixture.write("memory/empty.md", "");
    const outside = path.join(fixture.root, "outside.md");
    fs.writeFileSync(outside, "The lighthouse secret outside the workspace.\n");
    fs.symlinkSync(outside, path.join(fixture.workspace, "memory", "link.md"));

    const report = await fixture.service.sync("main");
    expect(report.indexed).toBe(1);
    const reasons = Object.fromEntries(report.skipped.map((s) => [s.relPath, s.reason]));
    expect(reasons["memory/binary.md"]).toContain("binary");
    expect(reasons["memory/huge.md"]).toContain("over the 2 MB limit");
    expect(reasons["memory/latin1.md"]).toContain("not valid UTF-8");
    expect(reasons["memory/link.md"]).toContain("symlink that leads out of the workspace");
    expect(reasons["memory/empty.md"]).toBeUndefined();
    const logged = fixture.warnings
      .filter((w) => w.msg === "memory file not indexed")
      .map((w) => (w.obj as { path: string }).path)
      .sort();
    expect(logged).toEqual(["memory/binary.md", "memory/huge.md", "memory/latin1.md", "memory/link.md"]);
    const status = await fixture.service.status("main");
    expect(status.files).toBe(1);
    expect(status.skipped.map((s) => s.path).sort()).toEqual(logged);
    const answer = await fixture.service.search("main", "lighthouse");
    expect(answer.results.map((r) => r.path)).toEqual(["memory/good.md"]);
  });

  it("skips a hard-linked memory file, whose content may be a file outside the workspace", async () => {
    const fixture = memory.open();
    fixture.write("memory/good.md", "A good note about the lighthouse.\n");
    const outside = path.join(fixture.root, "outside.txt");
    fs.writeFileSync(outside, "The lighthouse secret outside the workspace.\n");
    fs.linkSync(outside, path.join(fixture.workspace, "memory", "linked.md"));

    const report = await fixture.service.sync("main");
    expect(report.indexed).toBe(1);
    expect(report.skipped).toEqual([{ relPath: "memory/linked.md", reason: expect.stringContaining("2 hard links") }]);
    const answer = await fixture.service.search("main", "lighthouse secret");
    expect(answer.results.map((r) => r.path)).toEqual(["memory/good.md"]);
  });

  it("a file that becomes empty leaves the index", async () => {
    const fixture = memory.open();
    fixture.write("memory/a.md", "Orchids need little water.\n");
    await fixture.service.sync("main");
    fixture.write("memory/a.md", "   \n");
    await fixture.service.sync("main");
    expect((await fixture.service.status("main")).files).toBe(0);
  });
});

describe("memory: the SQLite file", () => {
  it("is rebuilt from the Markdown with a warning when it was corrupted while stopped", async () => {
    const fixture = memory.open();
    fixture.write("MEMORY.md", "The boat is named Petrel.\n");
    await fixture.service.sync("main");
    await fixture.service.close();
    const dbPath = path.join(fixture.stateDir, "memory", "main.sqlite");
    fs.writeFileSync(dbPath, Buffer.alloc(8192, 0x5a));
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(dbPath + suffix, { force: true });
    const service = await fixture.reopen();
    const answer = await service.search("main", "boat name");
    expect(answer.results[0]!.snippet).toContain("Petrel");
    expect(fixture.warnings.some((w) => w.msg.includes("unreadable (corrupt?)"))).toBe(true);
    expect(fs.readdirSync(path.dirname(dbPath)).some((name) => name.startsWith("main.sqlite.corrupt-"))).toBe(true);
  });

  it("is rebuilt with a warning when it was deleted while stopped", async () => {
    const fixture = memory.open();
    fixture.write("MEMORY.md", "The cat is named Miso.\n");
    await fixture.service.sync("main");
    await fixture.service.close();
    const dbPath = path.join(fixture.stateDir, "memory", "main.sqlite");
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(dbPath + suffix, { force: true });
    fixture.warnings.length = 0;
    const service = await fixture.reopen();
    expect((await service.search("main", "cat name")).results[0]!.snippet).toContain("Miso");
    expect(fixture.warnings.some((w) => w.msg.includes("memory index not found: building it"))).toBe(true);
  });
});

describe("memory: hostile queries", () => {
  it("sanitizes empty, 100 KB and FTS5-syntax queries: never a SQL error", async () => {
    const fixture = memory.open(fakeEmbeddingSearch(memory.server.url));
    fixture.write("MEMORY.md", 'He said "near" the AND gate, OR maybe NEAR(it) * star.\n');
    await fixture.service.sync("main");
    const queries = [
      "",
      "   ",
      "x".repeat(100 * 1024),
      '"',
      '"unbalanced',
      "*",
      "NEAR(",
      "NEAR(a b",
      "AND OR",
      "AND",
      "OR NOT",
      "col:text",
      "^start",
      "(((",
      "'; DROP TABLE chunks; --",
      "\u0000",
    ];
    for (const query of queries) {
      const answer = await fixture.service.search("main", query);
      expect(Array.isArray(answer.results)).toBe(true);
    }
    expect((await fixture.service.search("main", "")).warnings).toContain("the query is empty");
    expect((await fixture.service.search("main", "x".repeat(100 * 1024))).warnings.join(" ")).toContain("cut to its first");
    const syntax = await fixture.service.search("main", 'NEAR("gate" star*');
    expect(syntax.results[0]!.path).toBe("MEMORY.md");
  });
});

describe("memory: embedding faults", () => {
  for (const fault of ["http-500", "wrong-dims", "nan"] as const) {
    it(`${fault} from /v1/embeddings: a clear status, keyword search until fixed, then vectors again`, async () => {
      const fixture = memory.open(fakeEmbeddingSearch(memory.server.url));
      fixture.write("MEMORY.md", "The spare key is under the blue flowerpot.\n");
      await fixture.service.sync("main");
      fixture.write("memory/2026-11-30.md", "The garage code is 4711.\n");
      memory.server.setEmbeddingFault(fault);
      await fixture.service.sync("main");
      const status = await fixture.service.status("main");
      expect(status.mode).toBe("fts-only");
      const expected = { "http-500": "HTTP 500", "wrong-dims": "128-dimensional vectors", nan: "NaN" }[fault];
      expect(status.ftsOnlyReason).toContain(expected);
      const answer = await fixture.service.search("main", "garage code");
      expect(answer.mode).toBe("fts-only");
      expect(answer.results[0]!.path).toBe("memory/2026-11-30.md");
      expect(answer.warnings.join(" ")).toContain("vector search is off");

      memory.server.setEmbeddingFault(undefined);
      await fixture.service.sync("main");
      const healed = await fixture.service.status("main");
      expect(healed.mode).toBe("hybrid");
      expect(healed.embeddedChunks).toBe(healed.chunks);
      expect((await fixture.service.search("main", "garage code")).mode).toBe("hybrid");
    }, 20_000);
  }

  it("an explicitly named provider that cannot be reached fails closed with 'memory unavailable'", async () => {
    const fixture = memory.open({ provider: "fake", remote: { baseUrl: "http://127.0.0.1:9/v1" } });
    fixture.write("MEMORY.md", "Unreachable provider.\n");
    await fixture.service.sync("main");
    expect((await fixture.service.status("main")).mode).toBe("fts-only");
    const failure = await fixture.service.search("main", "provider").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MemoryUnavailableError);
    expect((failure as Error).message).toMatch(/^memory unavailable: embedding provider fake \(http:\/\/127\.0\.0\.1:9\/v1\) is unreachable/);
  }, 30_000);
});

describe("memory: without sqlite-vec", () => {
  it("ranks vectors in process when the extension cannot load, and status says why", async () => {
    const search = fakeEmbeddingSearch(memory.server.url);
    const fixture = memory.open(search, { env: { OPENCLAW_SQLITE_VEC_PATH: "/nonexistent/vec0.so" } });
    fixture.write("memory/2026-11-30.md", "- remember: the deploy key rotates on Tuesdays\n");
    fixture.write("MEMORY.md", "The cafeteria serves soup on Fridays.\n");
    await fixture.service.sync("main");
    const status = await fixture.service.status("main");
    expect(status).toMatchObject({ vectorBackend: "in-process", mode: "hybrid" });
    expect(status.fallbackReason).toContain("sqlite-vec did not load");
    const fallback = await fixture.service.search("main", "when is the credential cycled");
    expect(fallback.mode).toBe("hybrid");

    const service = await fixture.reopen(search, {});
    expect((await service.status("main")).vectorBackend).toBe("sqlite-vec");
    const withVec = await service.search("main", "when is the credential cycled");
    expect(fallback.results).toEqual(withVec.results);
  });
});
