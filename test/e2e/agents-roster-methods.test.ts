import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `agents.create|update|delete` against a real gateway: each write lands in the config file, the
 * running gateway takes it at once (agents.list, a turn on `agent:<id>:main`), and the refusals
 * of `openclaw agents add` / `agents delete` hold over the wire.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let admin: TestSocket;
let file: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? "/tmp"), "agents-roster-"));
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } } },
    models: {
      providers: {
        fake: {
          baseUrl: `${model.url}/v1`,
          apiKey: "sk-fake",
          api: "openai-completions",
          models: [
            { id: "fake-model", contextWindow: 120000, maxTokens: 4096 },
            { id: "other-model", contextWindow: 120000, maxTokens: 4096 },
          ],
        },
      },
    },
    bindings: [{ agentId: "main", match: { channel: "telegram", accountId: "main-bot" } }],
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config, null, 2) } });
  file = path.join(stateDir, "openclaw.json");
  admin = (await openOperator(gw.url, gw.token)).sock;
});
afterAll(async () => {
  admin?.close();
  await gw?.stop();
  await model?.close();
});

const fileConfig = () => JSON.parse(fs.readFileSync(file, "utf8"));
const listed = async () =>
  (await admin.request("agents.list", {})).payload.agents as { id: string; name?: string; workspace?: string; model?: { primary: string }; identity?: Record<string, string> }[];

/** Runs one turn on `sessionKey`; answers the model id the gateway asked the fake server for. */
async function turnModel(sessionKey: string): Promise<string> {
  model.enqueue({ text: "ok" });
  const runId = randomUUID();
  const sent = await admin.request("chat.send", { sessionKey, message: "hello", idempotencyKey: runId });
  expect(sent.ok, JSON.stringify(sent.error)).toBe(true);
  await admin.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final", 20_000);
  return String(model.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!.body.model);
}

describe("agents.create / update / delete", () => {
  it("create writes the agent and seeds its workspace; agents.list shows it and a turn runs on its model", async () => {
    const workspace = path.join(gw.stateDir, "ws-ops");
    const res = await admin.request("agents.create", { name: "Ops", workspace, model: "fake/other-model", emoji: "🛠" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload).toEqual({ ok: true, agentId: "ops", name: "Ops", workspace, model: "fake/other-model" });
    expect(fs.existsSync(path.join(workspace, "AGENTS.md"))).toBe(true);
    // The implicit main is written first, as the default, so it stays the default.
    expect(fileConfig().agents.entries).toEqual({
      main: { default: true },
      ops: { name: "Ops", workspace, model: "fake/other-model", identity: { emoji: "🛠" } },
    });
    const ops = (await listed()).find((a) => a.id === "ops");
    expect(ops).toMatchObject({ name: "Ops", workspace, model: { primary: "fake/other-model" }, identity: { emoji: "🛠" } });
    expect(await turnModel("agent:ops:main")).toBe("other-model");
    expect(await turnModel("agent:main:main")).toBe("fake-model");
  });

  it("create refuses an existing id, an invalid one, a shared workspace, a relative one, an unknown model and unknown fields; nothing is written", async () => {
    const before = fs.readFileSync(file, "utf8");
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ name: "OPS" }, /Agent "ops" already exists/],
      [{ name: "two words" }, /"two words" is not a valid agent id/],
      [{ name: "twin", workspace: path.join(gw.stateDir, "ws-ops") }, /is already agent "ops"'s workspace/],
      [{ name: "rel", workspace: "ws-rel" }, /workspace "ws-rel" is relative: give an absolute path/],
      [{ name: "nomodel", model: "nowhere/x" }, /^model: /],
      [{ name: "x", role: "dev" }, /role/],
    ];
    for (const [params, message] of refusals) {
      const res = await admin.request("agents.create", params);
      expect(res.ok, JSON.stringify(params)).toBe(false);
      expect(res.error.code).toBe("INVALID_REQUEST");
      expect(res.error.message).toMatch(message);
    }
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("update changes name, model and workspace (seeded), visible in agents.list; model null clears it", async () => {
    const workspace = path.join(gw.stateDir, "ws-ops-2");
    const res = await admin.request("agents.update", { agentId: "OPS", name: "Operations", model: "fake/fake-model", workspace, avatar: "https://example.test/ops.png" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload).toEqual({ ok: true, agentId: "ops" });
    expect(fs.existsSync(path.join(workspace, "SOUL.md"))).toBe(true);
    expect((await listed()).find((a) => a.id === "ops")).toMatchObject({
      name: "Operations",
      workspace,
      model: { primary: "fake/fake-model" },
      identity: { emoji: "🛠", avatar: "https://example.test/ops.png" },
    });
    const identityFile = fs.readFileSync(path.join(workspace, "IDENTITY.md"), "utf8");
    expect(identityFile).toContain("- Name: Operations\n");
    expect(identityFile).toContain("- Emoji: 🛠\n");
    expect(identityFile).toContain("- Avatar: https://example.test/ops.png\n");
    expect(identityFile).toContain("- Vibe:\n");
    expect(identityFile).toContain("Fill this in with the user");
    expect((await admin.request("agents.update", { agentId: "ops", model: null })).ok).toBe(true);
    expect(fileConfig().agents.entries.ops.model).toBeUndefined();
    expect((await listed()).find((a) => a.id === "ops")!.model).toBeUndefined();
  });

  it("update writes the identity into the agent's IDENTITY.md, keeping the lines the user wrote; a symlinked IDENTITY.md is refused and nothing changes", async () => {
    const workspace = (await listed()).find((a) => a.id === "ops")!.workspace!;
    const identityPath = path.join(workspace, "IDENTITY.md");
    fs.writeFileSync(identityPath, "# Who I am\n\n**Name:** Opsy\n- Vibe: calm\n- Name: stale\n\nNotes the user wrote.\n");
    const res = await admin.request("agents.update", { agentId: "ops", emoji: "🦞" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(fs.readFileSync(identityPath, "utf8")).toBe(
      "# Who I am\n\n- Name: Operations\n- Vibe: calm\n- Emoji: 🦞\n- Avatar: https://example.test/ops.png\n\nNotes the user wrote.\n",
    );

    const elsewhere = path.join(gw.stateDir, "elsewhere.md");
    fs.writeFileSync(elsewhere, "- Name: Someone else\n");
    fs.rmSync(identityPath);
    fs.symlinkSync(elsewhere, identityPath);
    const before = fs.readFileSync(file, "utf8");
    const refused = await admin.request("agents.update", { agentId: "ops", emoji: "🐙" });
    expect(refused.ok).toBe(false);
    expect(refused.error.message).toMatch(/IDENTITY\.md is not a regular file \(a symlink\?\)/);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect(fs.readFileSync(elsewhere, "utf8")).toBe("- Name: Someone else\n");
    fs.rmSync(identityPath);
  });

  it("update refuses an unknown agent, agentRuntime, a blank emoji, another agent's workspace and an empty update", async () => {
    const before = fs.readFileSync(file, "utf8");
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ agentId: "ghost", name: "G" }, /Agent "ghost" not found \(configured agents: main, ops/],
      [{ agentId: "ops", model: "fake/fake-model", agentRuntime: "codex" }, /^not supported: agentRuntime/],
      [{ agentId: "ops", emoji: " " }, /emoji is blank/],
      [{ agentId: "ops", workspace: path.join(gw.stateDir, "workspace") }, /is already agent "main"'s workspace/],
      [{ agentId: "ops" }, /nothing to update/],
    ];
    for (const [params, message] of refusals) {
      const res = await admin.request("agents.update", params);
      expect(res.ok, JSON.stringify(params)).toBe(false);
      expect(res.error.message).toMatch(message);
    }
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("a caller without operator.admin is refused create, update and delete", async () => {
    const { sock: reader } = await openOperator(gw.url, gw.token, { scopes: ["operator.read", "operator.write"] });
    try {
      for (const [method, params] of [
        ["agents.create", { name: "sneaky" }],
        ["agents.update", { agentId: "ops", name: "X" }],
        ["agents.delete", { agentId: "ops" }],
      ] as const) {
        const res = await reader.request(method, params);
        expect(res.ok, method).toBe(false);
        expect(res.error.message).toMatch(/operator\.admin/);
      }
    } finally {
      reader.close();
    }
    expect((await listed()).map((a) => a.id)).toEqual(["main", "ops"]);
  });

  it("delete removes the agent and its bindings, keeps its files; deleteFiles true, an unknown id and the only agent are refused", async () => {
    const bound = await admin.request("config.get", {});
    const patched = await admin.request("config.patch", {
      raw: JSON.stringify({ bindings: [...fileConfig().bindings, { agentId: "ops", match: { channel: "telegram", accountId: "ops-bot" } }] }),
      baseHash: bound.payload.hash,
    });
    expect(patched.ok, JSON.stringify(patched.error)).toBe(true);

    const trash = await admin.request("agents.delete", { agentId: "ops", deleteFiles: true });
    expect(trash.error.message).toMatch(/^not supported: deleteFiles: true/);
    expect((await admin.request("agents.delete", { agentId: "ghost" })).error.message).toMatch(/Agent "ghost" not found/);

    const res = await admin.request("agents.delete", { agentId: "ops" });
    expect(res.ok, JSON.stringify(res.error)).toBe(true);
    expect(res.payload).toEqual({ ok: true, agentId: "ops", removedBindings: 1 });
    expect(fileConfig().bindings).toEqual([{ agentId: "main", match: { channel: "telegram", accountId: "main-bot" } }]);
    expect(fileConfig().agents.entries.ops).toBeUndefined();
    expect((await listed()).map((a) => a.id)).toEqual(["main"]);
    const gone = await admin.request("chat.send", { sessionKey: "main", agentId: "ops", message: "still there?", idempotencyKey: randomUUID() });
    expect(gone.error.message).toMatch(/unknown agent "ops"/);
    expect(fs.existsSync(path.join(gw.stateDir, "ws-ops-2", "SOUL.md"))).toBe(true);

    const only = await admin.request("agents.delete", { agentId: "main" });
    expect(only.error.message).toBe('Agent "main" is the only agent and cannot be deleted.');
  });
});
