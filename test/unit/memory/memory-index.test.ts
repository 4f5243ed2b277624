import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { fakeEmbeddingSearch, type MemoryFixture, useMemoryTest } from "./helpers.js";

const memory = useMemoryTest();

function chunkRows(f: MemoryFixture): { path: string; n: number }[] {
  const db = new Database(path.join(f.stateDir, "memory", "main.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT path, count(*) AS n FROM chunks GROUP BY path ORDER BY path").all() as { path: string; n: number }[];
  } finally {
    db.close();
  }
}

describe("memory index: sync and hybrid search", () => {
  it("chunks left by a sync killed before it listed their file go when the file is gone", async () => {
    const fixture = memory.open();
    fixture.write("MEMORY.md", "# Memory\n\nKept.\n");
    fixture.write("memory/cut-off.md", "# Cut off\n\nIndexed when the process died.\n");
    await fixture.service.sync("main");
    await fixture.service.close();
    // What a kill between the chunks and the files row leaves: chunks whose file is unlisted.
    const db = new Database(path.join(fixture.stateDir, "memory", "main.sqlite"));
    db.prepare("DELETE FROM files WHERE path = 'memory/cut-off.md'").run();
    db.close();
    fs.rmSync(path.join(fixture.workspace, "memory", "cut-off.md"));
    await fixture.reopen();
    await fixture.service.sync("main");
    expect(chunkRows(fixture).map((r) => r.path)).toEqual(["MEMORY.md"]);
  });

  it("indexes MEMORY.md, USER.md and daily notes, and finds a line by meaning", async () => {
    const fixture = memory.open(fakeEmbeddingSearch(memory.server.url));
    fixture.write("MEMORY.md", "# Memory\n\nThe team prefers espresso over tea.\n");
    fixture.write("USER.md", "# User\n\nName: Ada. Lives in Lisbon.\n");
    fixture.write("memory/2026-11-30.md", "# 2026-11-30\n\n- remember: the deploy key rotates on Tuesdays\n");
    fixture.write("notes/elsewhere.md", "not a memory path: deploy key rotation\n");

    const report = await fixture.service.sync("main");
    expect(report.indexed).toBe(3);
    const status = await fixture.service.status("main");
    expect(status).toMatchObject({ files: 3, mode: "hybrid", provider: "fake", dims: 256, vectorBackend: "sqlite-vec", dirty: false, indexing: false });
    expect(status.embeddedChunks).toBe(status.chunks);

    const answer = await fixture.service.search("main", "when is the credential cycled");
    expect(answer.mode).toBe("hybrid");
    expect(answer.results[0]).toMatchObject({ path: "memory/2026-11-30.md", startLine: 1, endLine: 3 });
    expect(answer.results[0]!.snippet).toContain("deploy key rotates on Tuesdays");
    expect(answer.results.some((r) => r.path.startsWith("notes/"))).toBe(false);
  });

  it("re-indexes a changed file, drops a deleted one, and never duplicates chunks", async () => {
    const fixture = memory.open(fakeEmbeddingSearch(memory.server.url));
    fixture.write("memory/2026-11-29.md", "The backup server is called atlas.\n");
    const gone = fixture.write("memory/2026-11-28.md", "The old router password was hunter2.\n");
    await fixture.service.sync("main");
    fixture.write("memory/2026-11-29.md", "The backup server is called zephyr now.\n");
    fs.rmSync(gone);
    const report = await fixture.service.sync("main");
    expect(report).toMatchObject({ indexed: 1, removed: 1 });
    await fixture.service.sync("main");
    expect(chunkRows(fixture)).toEqual([{ path: "memory/2026-11-29.md", n: 1 }]);
    const answer = await fixture.service.search("main", "backup server name");
    expect(answer.results[0]!.snippet).toContain("zephyr");
    expect((await fixture.service.search("main", "router password hunter2")).results).toEqual([]);
  });

  it("embeds a text once: the second index of the same notes is served from embedding_cache", async () => {
    const fixture = memory.open(fakeEmbeddingSearch(memory.server.url));
    fixture.write("MEMORY.md", "Cache me once.\n");
    await fixture.service.sync("main");
    const calls = () => memory.server.requests.filter((r) => r.path === "/v1/embeddings").length;
    const before = calls();
    await fixture.service.sync("main", { force: true });
    expect(calls()).toBe(before);
    expect((await fixture.service.status("main")).embeddedChunks).toBe(1);
  });

  it("works without embeddings when provider is none, and says so", async () => {
    const fixture = memory.open({ provider: "none" });
    fixture.write("MEMORY.md", "The deploy key rotates on Tuesdays.\n");
    await fixture.service.sync("main");
    const status = await fixture.service.status("main");
    expect(status).toMatchObject({ mode: "fts-only", provider: "none" });
    expect(status.ftsOnlyReason).toContain('provider is "none"');
    const answer = await fixture.service.search("main", "deploy key");
    expect(answer).toMatchObject({ mode: "fts-only" });
    expect(answer.results[0]!.path).toBe("MEMORY.md");
  });

  it("names a daily note by its date and ranks it first", async () => {
    const fixture = memory.open({ provider: "none" });
    fixture.write("memory/2026-11-20.md", "Lunch with Bo.\n");
    fixture.write("MEMORY.md", "What happened on 2026-11-20 is in the daily note.\n");
    await fixture.service.sync("main");
    const answer = await fixture.service.search("main", "2026-11-20");
    expect(answer.results[0]!.path).toBe("memory/2026-11-20.md");
  });
});

describe("memory index: identity", () => {
  it("pauses vector search when the model changes, until a forced re-index", async () => {
    const fixture = memory.open(fakeEmbeddingSearch(memory.server.url));
    fixture.write("MEMORY.md", "Vectors made with one model.\n");
    await fixture.service.sync("main");
    const service = await fixture.reopen(fakeEmbeddingSearch(memory.server.url, { model: "another-embedding" }));
    const status = await service.status("main");
    expect(status.mode).toBe("fts-only");
    expect(status.identityMismatch).toContain("model fake-embedding → another-embedding");
    expect(fixture.warnings.some((w) => w.msg.includes("identity changed"))).toBe(true);
    const embedCalls = memory.server.requests.filter((r) => r.path === "/v1/embeddings").length;
    const answer = await service.search("main", "vectors model");
    expect(answer.mode).toBe("fts-only");
    expect(answer.warnings.join(" ")).toContain("openclaw memory index --force");
    expect(memory.server.requests.filter((r) => r.path === "/v1/embeddings").length).toBe(embedCalls);

    await service.sync("main", { force: true });
    expect(await service.status("main")).toMatchObject({ mode: "hybrid", model: "another-embedding" });
    expect((await service.status("main")).identityMismatch).toBeUndefined();
  });
});

describe("memory index: CJK", () => {
  it("finds Chinese notes through the trigram index, by keywords alone", async () => {
    const fixture = memory.open({ provider: "none" });
    fixture.write("memory/2026-11-30.md", "# 每日记忆\n\n- 部署密钥每周二轮换。\n");
    fixture.write("MEMORY.md", "- 项目规则：提交信息用英文。\n");
    await fixture.service.sync("main");
    const answer = await fixture.service.search("main", "部署密钥什么时候轮换");
    expect(answer.results[0]!.path).toBe("memory/2026-11-30.md");
  });
});

describe("memory index: searching while it indexes", () => {
  it("answers from what is indexed and says the index is updating", async () => {
    const fixture = memory.open(fakeEmbeddingSearch(memory.server.url));
    fixture.write("MEMORY.md", "The lighthouse keeper is called Ines.\n");
    await fixture.service.sync("main");
    fixture.write("memory/2026-11-30.md", "SLOW-NOTE: the lighthouse lamp was replaced.\n");
    const release = memory.server.holdEmbeddings("SLOW-NOTE");
    const syncing = fixture.service.sync("main");
    try {
      const during = await fixture.service.search("main", "lighthouse");
      expect(during.updating).toBe(true);
      expect(during.warnings.join(" ")).toContain("the memory index is updating");
      expect(during.results.map((r) => r.path)).toEqual(["MEMORY.md"]);
      expect((await fixture.service.status("main")).indexing).toBe(true);
    } finally {
      release();
    }
    await syncing;
    const after = await fixture.service.search("main", "lighthouse lamp");
    expect(after.updating).toBe(false);
    expect(after.results[0]!.path).toBe("memory/2026-11-30.md");
  });
});
