import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## The two commands"));
const yamlBlocks = [...quickStart.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server?.close();
});

// The quick start is followed as written; only the local server's address is the fake one.
describe("README quick start", () => {
  it("has a hosted-provider config, an Ollama config and a local-server config", () => {
    expect(yamlBlocks).toHaveLength(3);
    expect(quickStart).toContain("npm link");
  });

  it("the hosted-provider config validates", async () => {
    const stateDir = makeTempDir();
    fs.writeFileSync(path.join(stateDir, "openclaw.yaml"), yamlBlocks[0]!);
    const res = await runCli(["config", "validate", "--strict"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(0);
    expect(res.output).toContain("Config valid");
  });

  it("the Ollama config validates and answers a first question through Ollama's native API, with no key", async () => {
    const stateDir = makeTempDir();
    const ollama = yamlBlocks[1]!;
    expect(ollama).toContain("model: ollama/qwen3:8b");
    // The built-in provider's address (127.0.0.1:11434) is the one thing pointed at the fake.
    fs.writeFileSync(path.join(stateDir, "openclaw.yaml"), ollama.replace("    ollama:\n", `    ollama:\n      baseUrl: ${server.url}\n`));
    const env = { OPENCLAW_STATE_DIR: stateDir, OLLAMA_API_KEY: undefined };
    const valid = await runCli(["config", "validate", "--strict"], env);
    expect(valid.code, valid.output).toBe(0);
    server.enqueue({ text: "Hello from a local model." });
    const res = await runCli(["agent", "--local", "-m", "Say hello in five words"], env, 30_000);
    expect(res.code, res.output).toBe(0);
    expect(res.output).toBe("Hello from a local model.\n");
    const request = server.requests.at(-1)!;
    expect(request.path).toBe("/api/chat");
    expect(request.body.model).toBe("qwen3:8b");
    expect(request.headers.authorization).toBeUndefined();
  }, 120_000);

  it("the local-server config validates and answers a first question", async () => {
    const stateDir = makeTempDir();
    const local = yamlBlocks[2]!;
    expect(local).toContain("baseUrl: http://127.0.0.1:1234/v1");
    fs.writeFileSync(path.join(stateDir, "openclaw.yaml"), local.replace("http://127.0.0.1:1234/v1", `${server.url}/v1`));
    const env = { OPENCLAW_STATE_DIR: stateDir };
    const valid = await runCli(["config", "validate", "--strict"], env);
    expect(valid.code).toBe(0);
    server.enqueue({ text: "Hello there, nice to meet." });
    const res = await runCli(["agent", "--local", "-m", "Say hello in five words"], env, 30_000);
    expect(res.code).toBe(0);
    expect(res.output).toBe("Hello there, nice to meet.\n");
    expect(server.requests.at(-1)!.body.model).toBe("llama3.2");
  }, 120_000);
});
