import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let stateDir: string;
let profilesFile: string;

const BACKUP_KEY = "sk-backup-secret-0123456789";
const ENV_KEY = "sk-openai-env-secret-0123456789";
const cooldownUntil = Date.now() + 3_600_000;

beforeAll(async () => {
  server = await startFakeModelServer();
  stateDir = makeTempDir();
  const workspace = path.join(stateDir, "workspace");
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, "MEMORY.md"), "# Memory\n\n- the deploy key rotates on Tuesdays\n");
  profilesFile = path.join(stateDir, "agents", "main", "agent", "auth-profiles.json");
  fs.mkdirSync(path.dirname(profilesFile), { recursive: true });
  fs.writeFileSync(
    profilesFile,
    JSON.stringify({
      version: 1,
      profiles: { "fake:backup": { type: "api_key", provider: "fake", key: BACKUP_KEY } },
      usageStats: { "fake:backup": { cooldownUntil, cooldownReason: "rate_limit", cooldownModel: "fake-model", errorCount: 2, lastFailureAt: Date.now() } },
    }),
  );
  const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${server.url}/v1`, apiKey: "sk-fake-embed" } } };
  const config = JSON.parse(fakeModelConfig(server, stateDir, { memory }));
  config.models.providers.keyless = { baseUrl: `${server.url}/v1`, api: "openai-completions", models: [{ id: "m" }] };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) }, env: { OPENAI_API_KEY: ENV_KEY } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

const embeddingRequests = () => server.requests.filter((r) => r.path === "/v1/embeddings");

describe("doctor.memory.status", () => {
  it("reports the provider, an unchecked embedding before anything asked it, and the index counts", async () => {
    const res = await sock.request("doctor.memory.status", {});
    expect(res.ok).toBe(true);
    expect(res.payload).toMatchObject({ agentId: "main", provider: "fake", model: "fake-embedding", embedding: { ok: false, checked: false } });
    expect(res.payload.embedding.error).toContain("probe: true");
    expect(res.payload.index).toMatchObject({ files: 0, chunks: 0, dirty: true, indexing: false });
    expect(res.payload).not.toHaveProperty("dreaming");
  });

  it("probe: true asks the provider for a vector now; the answer is then known without a probe", async () => {
    const before = embeddingRequests().length;
    const probed = await sock.request("doctor.memory.status", { probe: true });
    expect(probed.payload.embedding).toEqual({ ok: true, checked: true });
    expect(embeddingRequests().length).toBe(before + 1);
    expect(embeddingRequests().at(-1)!.body).toMatchObject({ model: "fake-embedding", input: ["memory probe"] });
    const cached = await sock.request("doctor.memory.status", {});
    expect(cached.payload.embedding).toEqual({ ok: true, checked: true });
    expect(embeddingRequests().length).toBe(before + 1);
  });

  it("a failing provider is not ready, with the provider's error, until a probe (deep) succeeds again", async () => {
    server.setEmbeddingFault("http-500");
    try {
      const failed = await sock.request("doctor.memory.status", { deep: true });
      expect(failed.payload.embedding).toMatchObject({ ok: false, checked: true });
      expect(failed.payload.embedding.error).toContain("HTTP 500");
      expect(failed.payload.embedding.error).not.toContain("sk-fake-embed");
      const remembered = await sock.request("doctor.memory.status", {});
      expect(remembered.payload.embedding).toEqual(failed.payload.embedding);
    } finally {
      server.setEmbeddingFault(undefined);
    }
    const recovered = await sock.request("doctor.memory.status", { probe: true });
    expect(recovered.payload.embedding).toEqual({ ok: true, checked: true });
  });

  it("after a sync the counts are the index's", async () => {
    await sock.request("memory.search", { query: "deploy key" });
    let status: Record<string, any>;
    do status = (await sock.request("doctor.memory.status", {})).payload;
    while (status.index.dirty || status.index.indexing);
    expect(status.index.mode).toBe("hybrid");
    expect(status.index.files).toBeGreaterThan(0);
    expect(status.index.chunks).toBeGreaterThanOrEqual(status.index.files);
    expect(status.index.embeddedChunks).toBe(status.index.chunks);
    expect(typeof status.index.lastSyncAt).toBe("string");
  });

  it("refuses an unknown agent and params of the wrong type, naming them", async () => {
    const unknown = await sock.request("doctor.memory.status", { agentId: "nobody" });
    expect(unknown.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(unknown.error.message).toContain('unknown agent id "nobody"');
    const bad = await sock.request("doctor.memory.status", { probe: "yes" });
    expect(bad.error.code).toBe("INVALID_REQUEST");
    expect(bad.error.message).toContain("probe");
  });
});

describe("models.authStatus", () => {
  const providerOf = (payload: { providers: { provider: string }[] }, id: string) => payload.providers.find((p) => p.provider === id) as Record<string, any>;

  it("lists each provider's keys by source with failover's cooldowns, and never a secret", async () => {
    const res = await sock.request("models.authStatus", {});
    expect(res.ok).toBe(true);
    expect(res.payload.agentId).toBe("main");
    expect(typeof res.payload.ts).toBe("number");
    const fake = providerOf(res.payload, "fake");
    expect(fake).toMatchObject({ provider: "fake", status: "static", apiKey: { source: "config" } });
    expect(fake.profiles).toEqual(
      expect.arrayContaining([
        { profileId: "fake:config", type: "api_key", status: "static", source: "config", state: "ready" },
        {
          profileId: "fake:backup",
          type: "api_key",
          status: "static",
          source: "saved",
          state: "cooldown",
          cooldownUntil,
          reason: "rate_limit",
          model: "fake-model",
          errorCount: 2,
        },
      ]),
    );
    expect(providerOf(res.payload, "keyless")).toMatchObject({ status: "missing", profiles: [] });
    expect(providerOf(res.payload, "keyless")).not.toHaveProperty("apiKey");
    const openai = providerOf(res.payload, "openai");
    expect(openai).toMatchObject({ status: "static", apiKey: { source: "env", envVar: "OPENAI_API_KEY" } });
    expect(openai.profiles).toEqual([{ profileId: "openai:env", type: "api_key", status: "static", source: "env", state: "ready" }]);
    const text = JSON.stringify(res.payload);
    for (const secret of ["sk-fake", BACKUP_KEY, ENV_KEY, BACKUP_KEY.slice(-4)]) expect(text).not.toContain(secret);
  });

  it("refresh: true reads a profile added to auth-profiles.json at once", async () => {
    const file = JSON.parse(fs.readFileSync(profilesFile, "utf8"));
    file.profiles["keyless:added"] = { type: "token", provider: "keyless", token: "tok-added-secret-0123456789" };
    fs.writeFileSync(profilesFile, JSON.stringify(file));
    const res = await sock.request("models.authStatus", { refresh: true });
    expect(providerOf(res.payload, "keyless")).toMatchObject({
      status: "static",
      profiles: [{ profileId: "keyless:added", type: "token", status: "static", source: "saved", state: "ready" }],
    });
    expect(JSON.stringify(res.payload)).not.toContain("tok-added-secret");
  });

  it("refuses an unknown agent", async () => {
    const res = await sock.request("models.authStatus", { agentId: "nobody" });
    expect(res.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(res.error.message).toContain('unknown agent id "nobody"');
  });
});

describe("status", () => {
  it("runtimeVersion is the gateway's own version, not Node's", async () => {
    const res = await sock.request("status", {});
    expect(res.payload.runtimeVersion).toBe(res.payload.version);
    expect(res.payload.runtimeVersion).not.toBe(process.version);
  });
});

describe("doctor.memory.status with memory turned off", () => {
  it("answers not ready, saying memory is disabled, rather than failing", async () => {
    const { payload: snap } = await sock.request("config.get", {});
    const patched = await sock.request("config.patch", { raw: "{ memory: { search: { enabled: false } } }", baseHash: snap.hash });
    expect(patched.payload).toMatchObject({ applied: true, restartRequiredPaths: [] });
    const res = await sock.request("doctor.memory.status", {});
    expect(res.payload).toEqual({ agentId: "main", embedding: { ok: false, checked: true, error: "memory is disabled (memory.search.enabled is false)" } });
  });
});
