import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `POST /tools/invoke` and `tools.invoke` through a real gateway: a tool the session's policy
 * allows runs in the agent's workspace; the built-in deny list (less `gateway.tools.allow`, plus
 * `gateway.tools.deny`), unknown tools, bad arguments, a tool's own error, a sandboxed session
 * and a missing token each get OpenClaw's status and error shape.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let workspace: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${model.url}/v1`, apiKey: "sk-fake-embed" } } };
  const config = JSON.parse(fakeModelConfig(model, stateDir, { gateway: { tools: { allow: ["apply_patch"], deny: ["web_fetch"] } }, memory }));
  config.agents.defaults.sandbox = { mode: "non-main" };
  config.agents.defaults.contextLimits = { memoryGetMaxChars: 100 };
  workspace = config.agents.defaults.workspace;
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, "notes.md"), "the release is on Friday\n");
  fs.writeFileSync(path.join(workspace, "MEMORY.md"), ["a".repeat(80), "b".repeat(80), "c".repeat(80)].join("\n"));
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

const invoke = (body: unknown, token: string | undefined = gw.token) =>
  fetch(`${gw.httpUrl}/tools/invoke`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, any> }));

describe("tools invoke", { timeout: 60_000 }, () => {
  it("runs an allowed tool in the agent's workspace and answers with its result", async () => {
    const read = await invoke({ tool: "read", args: { path: "notes.md" } });
    expect(read.status).toBe(200);
    expect(read.body.ok).toBe(true);
    expect(JSON.stringify(read.body.result.content)).toContain("the release is on Friday");
    const listed = await invoke({ name: "sessions_list", sessionKey: "main", args: {} });
    expect(listed).toMatchObject({ status: 200, body: { ok: true } });
  });

  it("memory_get returns at most agents.defaults.contextLimits.memoryGetMaxChars", async () => {
    const got = await invoke({ tool: "memory_get", args: { path: "MEMORY.md" } });
    expect(got.status).toBe(200);
    const text = String(got.body.result.content[0].text);
    expect(text.startsWith(`${"a".repeat(80)}\n\n[Lines 1-1 of 3. Use from=2 to continue.]`)).toBe(true);
  });

  it("takes gateway.tools.allow off the built-in deny list and adds gateway.tools.deny", async () => {
    expect(await invoke({ tool: "exec", args: { command: "echo hi" } })).toEqual({
      status: 404,
      body: { ok: false, error: { type: "not_found", message: "Tool not available: exec" } },
    });
    expect((await invoke({ tool: "web_fetch", args: { url: "https://example.com" } })).status).toBe(404);
    const patch = "*** Begin Patch\n*** Add File: added.md\n+written through tools invoke\n*** End Patch";
    expect((await invoke({ tool: "apply_patch", args: { input: patch } })).status).toBe(200);
    expect(fs.readFileSync(path.join(workspace, "added.md"), "utf8")).toContain("written through tools invoke");
  });

  it("refuses what it cannot run, with the reason", async () => {
    expect(await invoke({ tool: "no_such_tool" })).toMatchObject({ status: 404, body: { error: { type: "not_found" } } });
    expect(await invoke({ args: {} })).toMatchObject({ status: 400, body: { ok: false, error: { type: "invalid_request" } } });
    expect(await invoke({ tool: "read", args: { paht: "notes.md" } })).toMatchObject({
      status: 400,
      body: { error: { type: "invalid_request", message: expect.stringContaining("invalid arguments for read") } },
    });
    expect(await invoke({ tool: "read", args: { path: "missing.md" } })).toMatchObject({ status: 400, body: { error: { type: "tool_error" } } });
    expect(await invoke({ tool: "read", sessionKey: "elsewhere", args: { path: "notes.md" } })).toMatchObject({
      status: 403,
      body: { error: { type: "tool_call_blocked", message: expect.stringContaining("runs sandboxed") } },
    });
    expect(await invoke({ tool: "read", dryRun: true, args: { path: "notes.md" } })).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining("dryRun") } },
    });
    expect((await invoke({ tool: "read", args: { path: "notes.md" } }, "wrong-token")).status).toBe(401);
    expect((await fetch(`${gw.httpUrl}/tools/invoke`)).status).toBe(405);
  });

  it("tools.invoke over the WebSocket answers the same way, in the RPC shape", async () => {
    const ok = await sock.request("tools.invoke", { name: "read", args: { path: "notes.md" } });
    expect(ok.ok).toBe(true);
    expect(ok.payload).toMatchObject({ ok: true, toolName: "read", source: "core" });
    expect(JSON.stringify(ok.payload.output)).toContain("the release is on Friday");
    const blocked = await sock.request("tools.invoke", { name: "exec", args: { command: "echo hi" } });
    expect(blocked.payload).toEqual({ ok: false, toolName: "exec", error: { code: "not_found", message: "Tool not available: exec" } });
  });
});
