import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `tools.exec.applyPatch` through a real gateway: `allowModels` naming another model keeps
 * apply_patch from the turn's model and `tools.effective` says why; a config patch listing the
 * turn's model offers it again; `enabled: false` takes it away from every model.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let stateDir: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  stateDir = makeTempDir();
  const config = fakeModelConfig(model, stateDir, { tools: { exec: { applyPatch: { allowModels: ["openai/gpt-5.4"] } } } });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

const chatRequests = (): RecordedRequest[] => model.requests.filter((r) => r.path === "/v1/chat/completions");

async function offeredTools(sessionKey: string): Promise<string[]> {
  model.enqueue({ text: "ok" });
  const key = randomUUID();
  await sock.request("chat.send", { sessionKey, message: "hello", idempotencyKey: key });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 20_000);
  return ((chatRequests().at(-1)!.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

async function patch(raw: string): Promise<void> {
  const { payload: snap } = await sock.request("config.get", {});
  const patched = await sock.request("config.patch", { raw, baseHash: snap.hash, replacePaths: ["tools.exec.applyPatch.allowModels"] });
  if (patched.error) throw new Error(JSON.stringify(patched.error));
  expect(patched.payload).toMatchObject({ applied: true });
}

describe("tools.exec.applyPatch", { timeout: 60_000 }, () => {
  it("allowModels keeps apply_patch for the models it names only, and enabled: false for none", async () => {
    const names = await offeredTools("patch-other-model");
    expect(names).toEqual(expect.arrayContaining(["read", "edit", "exec"]));
    expect(names).not.toContain("apply_patch");
    const explained = await runCli(["tools", "explain", "--model", "fake/fake-model"], { OPENCLAW_STATE_DIR: stateDir });
    expect(explained.output).toContain("apply_patch");
    expect(explained.output).toContain("the turn's model (fake/fake-model) is not in tools.exec.applyPatch.allowModels");

    await patch("{ tools: { exec: { applyPatch: { allowModels: ['fake/fake-model'] } } } }");
    expect(await offeredTools("patch-listed-model")).toContain("apply_patch");

    await patch("{ tools: { exec: { applyPatch: { enabled: false, allowModels: [] } } } }");
    expect(await offeredTools("patch-off")).not.toContain("apply_patch");
  });
});
