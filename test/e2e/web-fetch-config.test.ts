import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * `tools.web.fetch` through a real gateway: `enabled: false` takes web_fetch out of what the model
 * is offered, out of `tools.catalog` and `tools.effective`, and out of `/tools/invoke`; turning it
 * back on with a config patch offers it again, with the configured maxChars default and cap.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, { tools: { web: { fetch: { enabled: false } } } }) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

type WireTool = { function: { name: string; parameters: { properties: Record<string, { description?: string }> } } };
const chatRequests = (): RecordedRequest[] => model.requests.filter((r) => r.path === "/v1/chat/completions");
const offeredTools = (request: RecordedRequest): WireTool[] => (request.body.tools ?? []) as WireTool[];

async function runTurn(sessionKey: string): Promise<RecordedRequest> {
  const before = chatRequests().length;
  model.enqueue({ text: "ok" });
  const key = randomUUID();
  await sock.request("chat.send", { sessionKey, message: "hello", idempotencyKey: key });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 20_000);
  expect(chatRequests().length).toBe(before + 1);
  return chatRequests().at(-1)!;
}

async function catalogNames(): Promise<string[]> {
  const catalog = (await sock.request("tools.catalog", {})).payload;
  return catalog.groups.flatMap((g: { tools: { id: string }[] }) => g.tools.map((t) => t.id));
}

const invokeWebFetch = () =>
  fetch(`${gw.httpUrl}/tools/invoke`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${gw.token}` },
    body: JSON.stringify({ tool: "web_fetch", args: { url: "https://example.com" } }),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, any> }));

describe("tools.web.fetch", { timeout: 60_000 }, () => {
  it("enabled: false: the model is not offered web_fetch, the catalogs do not list it and /tools/invoke does not find it", async () => {
    const names = offeredTools(await runTurn("fetch-off")).map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["read", "exec", "process"]));
    expect(names).not.toContain("web_fetch");
    expect(await catalogNames()).not.toContain("web_fetch");
    const effective = (await sock.request("tools.effective", { sessionKey: "fetch-off" })).payload;
    expect(effective.groups.flatMap((g: { tools: { id: string }[] }) => g.tools.map((t) => t.id))).not.toContain("web_fetch");
    expect(await invokeWebFetch()).toEqual({ status: 404, body: { ok: false, error: { type: "not_found", message: "Tool not available: web_fetch" } } });
  });

  it("turned back on by a config patch, web_fetch is offered again with the configured maxChars default and cap", async () => {
    const { payload: snap } = await sock.request("config.get", {});
    const patched = await sock.request("config.patch", { raw: "{ tools: { web: { fetch: { enabled: true, maxChars: 3000, maxCharsCap: 6000 } } } }", baseHash: snap.hash });
    expect(patched.ok).toBe(true);
    expect(patched.payload).toMatchObject({ applied: true, restartRequiredPaths: [] });
    const webFetch = offeredTools(await runTurn("fetch-on")).find((t) => t.function.name === "web_fetch");
    expect(webFetch?.function.parameters.properties.maxChars?.description).toBe("Maximum characters of text to return (default 3000, at most 6000).");
    expect(await catalogNames()).toContain("web_fetch");
  });
});
