import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { REFUSED_PORT } from "../helpers/ports.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

/**
 * An embedding provider that refuses the key or cannot be reached: `openclaw memory` says which
 * provider, what it answered, and the setting to check (docs/memory.md), never the key.
 */
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer({ apiKey: "sk-the-right-key" });
});
afterAll(async () => {
  await server?.close();
});

function memoryState(baseUrl: string, apiKey: string): Record<string, string> {
  const stateDir = makeTempDir();
  const workspace = path.join(stateDir, "workspace");
  const memory = { search: { provider: "emb", model: "fake-embedding", remote: { baseUrl, apiKey } } };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(server, stateDir, { memory }));
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, "MEMORY.md"), "# Memory\n\nThe deploy key rotates on Tuesdays.\n");
  return { OPENCLAW_STATE_DIR: stateDir };
}

describe("embedding provider failures", () => {
  it("a refused key names the settings the key comes from", async () => {
    const env = memoryState(`${server.url}/v1`, "sk-a-wrong-key-1234");
    const res = await runCli(["memory", "index"], env);
    expect(res.output).toContain(`embedding provider emb (${server.url}/v1) answered HTTP 401`);
    expect(res.output).toContain("check the key: memory.search.remote.apiKey, models.providers.emb.apiKey or EMB_API_KEY");
    expect(res.output).not.toContain("sk-a-wrong-key-1234");
  });

  it("an unreachable endpoint asks whether the server runs there and names the baseUrl settings", async () => {
    const baseUrl = `http://127.0.0.1:${REFUSED_PORT}/v1`;
    const res = await runCli(["memory", "search", "deploy"], memoryState(baseUrl, "sk-the-right-key"));
    expect(res.code).toBe(1);
    expect(res.output).toContain(`memory unavailable: embedding provider emb (${baseUrl}) is unreachable: ECONNREFUSED`);
    expect(res.output).toContain("is the server running there? Check memory.search.remote.baseUrl or models.providers.emb.baseUrl");
  });

  it("credentials written into the baseUrl are not shown", async () => {
    const baseUrl = `http://embeduser:embed-pass-secret@127.0.0.1:${REFUSED_PORT}/v1`;
    const res = await runCli(["memory", "search", "deploy"], memoryState(baseUrl, "sk-the-right-key"));
    expect(res.code).toBe(1);
    expect(res.output).toContain("embedding provider emb (http://***@127.0.0.1:");
    expect(res.output).not.toContain("embed-pass-secret");
  });
});
