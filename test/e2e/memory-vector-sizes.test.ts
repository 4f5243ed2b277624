import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

/**
 * Embedding models come in sizes that are not a multiple of 8 (a shortened OpenAI vector, small
 * local models): the index takes them like any other (docs/memory.md), through `openclaw memory`.
 */
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer({ embeddingDims: 100 });
});
afterAll(async () => {
  await server?.close();
});

describe("an embedding model whose vectors are not a multiple of 8 long", () => {
  it("is indexed and searched by meaning", async () => {
    const stateDir = makeTempDir();
    const workspace = path.join(stateDir, "workspace");
    const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${server.url}/v1`, apiKey: "sk-fake-embed" } } };
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(server, stateDir, { memory }));
    fs.mkdirSync(path.join(workspace, "memory"), { recursive: true });
    fs.writeFileSync(path.join(workspace, "memory", "2026-11-30.md"), "- remember: the deploy key rotates on Tuesdays\n");
    fs.writeFileSync(path.join(workspace, "MEMORY.md"), "# Memory\n\nThe staging database is called marlin.\n");
    const env = { OPENCLAW_STATE_DIR: stateDir };

    const index = await runCli(["memory", "index"], env);
    expect(index.output).toContain("Indexed 2 file(s)");
    expect(index.code).toBe(0);
    const status = JSON.parse((await runCli(["memory", "status", "--json"], env)).output);
    expect(status).toMatchObject({ files: 2, mode: "hybrid", dims: 100, vectorBackend: "sqlite-vec" });

    // No word in common with the note: only its vector finds it.
    const search = await runCli(["memory", "search", "when is the credential cycled", "--json"], env);
    expect(search.code).toBe(0);
    expect(JSON.parse(search.output).results[0]).toMatchObject({ path: "memory/2026-11-30.md" });

    // An index whose bit table has another size (made before sizes were padded) gets a new one from the stored vectors.
    const db = new Database(path.join(stateDir, "memory", "main.sqlite"));
    sqliteVec.load(db);
    db.exec("DROP TABLE chunks_vec; CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding bit[96])");
    db.close();
    const again = await runCli(["memory", "search", "when is the credential cycled", "--json"], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.output).results[0]).toMatchObject({ path: "memory/2026-11-30.md" });
  });
});
