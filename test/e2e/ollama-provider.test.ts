import fs from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

/**
 * A model behind Ollama's native chat API (`api: "ollama"`, `POST /api/chat`, one JSON object per
 * line), through the real gateway: no key for a local server, the model's params as Ollama's
 * options, a tool call and its result, and Ollama's own error text when a model is missing.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let client: OpenAI;
let workspace: string;
let stateDir: string;

beforeAll(async () => {
  model = await startFakeModelServer({ models: ["qwen3:8b"] });
  stateDir = makeTempDir();
  workspace = path.join(stateDir, "ws");
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, "notes.txt"), "The spare key is under the blue pot.\n");
  const config = {
    agents: { defaults: { workspace, model: "ollama/qwen3:8b", skipBootstrap: true, models: { "ollama/qwen3:8b": { params: { temperature: 0.2, num_ctx: 4096 } } } } },
    models: {
      providers: {
        // The local server needs no key: none is configured and none is in the environment.
        ollama: { api: "ollama", baseUrl: model.url, models: [{ id: "qwen3:8b", reasoning: true, params: { num_ctx: 16384, keep_alive: "15m" } }] },
      },
    },
    gateway: { http: { endpoints: { chatCompletions: { enabled: true } } } },
  };
  // OLLAMA_API_KEY is Ollama Cloud's: a local server is never sent it.
  gw = await startGateway({ stateDir, env: { OLLAMA_API_KEY: "cloud-key-not-for-local" }, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  client = new OpenAI({ baseURL: `${gw.httpUrl}/v1`, apiKey: gw.token!, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.stop();
  await model?.close();
});
beforeEach(() => model.reset());

const chatCalls = (): RecordedRequest[] => model.requests.filter((r) => r.path === "/api/chat");

describe("an Ollama model through the gateway (api: ollama)", () => {
  it("answers a turn from /api/chat with no key, the model entry's params over the agent's", async () => {
    model.enqueue({ thinking: "Short answer.", text: "Hello from Ollama", usage: { input: 31, output: 4 } });
    const reply = await client.chat.completions.create({ model: "openclaw", user: "ollama-plain", messages: [{ role: "user", content: "hi" }] });
    expect(reply.choices[0]!.message.content).toBe("Hello from Ollama");
    const [call] = chatCalls();
    expect(call!.headers.authorization).toBeUndefined();
    expect(call!.body).toMatchObject({
      model: "qwen3:8b",
      stream: true,
      keep_alive: "15m",
      truncate: false,
      shift: false,
      options: { num_ctx: 16384, temperature: 0.2 },
    });
    expect(call!.body.messages[0].role).toBe("system");
    expect(call!.body.messages.at(-1)).toEqual({ role: "user", content: "hi" });
    expect(call!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain("read");
  });

  it("runs a tool call and sends its result back by tool name", async () => {
    model.enqueue({ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: "It is under the blue pot." });
    const reply = await client.chat.completions.create({ model: "openclaw", user: "ollama-tool", messages: [{ role: "user", content: "where is the key?" }] });
    expect(reply.choices[0]!.message.content).toBe("It is under the blue pot.");
    const calls = chatCalls();
    expect(calls).toHaveLength(2);
    const replayed = calls[1]!.body.messages.slice(-2);
    expect(replayed[0]).toMatchObject({ role: "assistant", tool_calls: [{ function: { name: "read", arguments: { path: "notes.txt" } } }] });
    expect(replayed[1]).toMatchObject({ role: "tool", tool_name: "read" });
    expect(replayed[1].content).toContain("The spare key is under the blue pot.");
  });

  it("a missing model fails the turn with Ollama's text and the URL it called", async () => {
    model.enqueue({ status: 404, body: { error: 'model "qwen3:8b" not found, try pulling it first' } });
    const failure = await client.chat.completions.create({ model: "openclaw", user: "ollama-missing", messages: [{ role: "user", content: "hi" }] }).then(
      () => undefined,
      (err: unknown) => err as { status?: number; message?: string },
    );
    expect(failure).toBeDefined();
    expect(failure!.message).toContain('model "qwen3:8b" not found, try pulling it first');
    expect(failure!.message).toContain(`${model.url}/api/chat`);
  });

  it("models status says the local server needs no key, and the chain can run", { timeout: 30_000 }, async () => {
    const res = await runCli(["models", "status"], { OPENCLAW_STATE_DIR: stateDir, OLLAMA_API_KEY: undefined });
    expect(res.code).toBe(0);
    expect(res.output).toContain("ollama:\n  (no key needed: the server is on this machine or the LAN)");
  });

  it("doctor reaches the server with one GET /api/tags and finds the model; an unpulled one is a warning naming ollama pull", { timeout: 30_000 }, async () => {
    const doctor = async (dir: string) => {
      const { output } = await runCli(["doctor", "--json"], { OPENCLAW_STATE_DIR: dir, OLLAMA_API_KEY: undefined });
      const report = JSON.parse(output.slice(output.indexOf("{")));
      return report.checks.find((c: { id: string }) => c.id === "provider");
    };
    expect(await doctor(stateDir)).toMatchObject({ status: "ok", message: "ollama/qwen3:8b: provider reachable (no key needed)" });
    expect(model.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/tags"]);
    const other = makeTempDir();
    fs.writeFileSync(
      path.join(other, "openclaw.json"),
      JSON.stringify({ agents: { defaults: { model: "ollama/llama3.3" } }, models: { providers: { ollama: { api: "ollama", baseUrl: model.url } } } }),
    );
    const missing = await doctor(other);
    expect(missing).toMatchObject({ status: "warn", message: 'provider "ollama" answered, but does not list model llama3.3' });
    expect(missing.fix).toContain("`ollama pull llama3.3`");
  });
});
