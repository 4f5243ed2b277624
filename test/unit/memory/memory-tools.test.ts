import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runEmbeddedTurn } from "../../../src/agents/embedded-turn.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { RawOpenClawConfig } from "../../../src/config/index.js";
import { MemoryService } from "../../../src/memory/index.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";

let server: FakeModelServer;
let root: string;
const services: MemoryService[] = [];

beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  server.reset();
  await Promise.all(services.splice(0).map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** One real turn (fake model server, real MemoryService) with the given config additions. */
async function turn(extra: RawOpenClawConfig, options: { withMemory?: boolean } = {}) {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "memory-tools-"));
  const workspace = path.join(root, "workspace");
  const config = applyDefaults({
    agents: { defaults: { workspace, model: { primary: "fake/fake-model" } } },
    models: { providers: { fake: { baseUrl: `${server.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models: [{ id: "fake-model" }] } } },
    ...extra,
  } as RawOpenClawConfig);
  const memory = new MemoryService({
    stateDir: root,
    config: () => config,
    env: {},
    logger: { warn() {}, info() {}, debug() {} } as never,
    workspaceDirOf: () => workspace,
    watch: false,
  });
  services.push(memory);
  const result = await runEmbeddedTurn({
    config,
    stateDir: root,
    env: {},
    message: "what do you remember?",
    senderIsOwner: true,
    sessionKey: "agent:main:main",
    services: options.withMemory === false ? {} : { memory },
  });
  const request = server.requests.find((r) => r.path === "/v1/chat/completions")!.body as { tools: { function: { name: string } }[]; messages: { content: string }[] };
  return { result, tools: request.tools.map((t) => t.function.name), prompt: request.messages[0]!.content, workspace, memory };
}

describe("memory tools in a turn", () => {
  it("are offered with the memory-recall section when the gateway's memory service is there", async () => {
    const { tools, prompt } = await turn({ memory: { search: { provider: "none" } } });
    expect(tools).toEqual(expect.arrayContaining(["memory_search", "memory_get"]));
    expect(prompt).toContain("## Memory Recall");
  });

  it("are removed by the policy pipeline like any tool, and the memory-recall section goes with them", async () => {
    const { tools, prompt } = await turn({ memory: { search: { provider: "none" } }, tools: { deny: ["group:memory"] } } as RawOpenClawConfig);
    expect(tools).not.toContain("memory_search");
    expect(tools).not.toContain("memory_get");
    expect(prompt).not.toContain("## Memory Recall");
  });

  it("keep memory_get when only memory_search is denied, without the memory-recall section", async () => {
    const { tools, prompt } = await turn({ memory: { search: { provider: "none" } }, tools: { deny: ["memory_search"] } } as RawOpenClawConfig);
    expect(tools).toContain("memory_get");
    expect(prompt).not.toContain("## Memory Recall");
  });

  it("are not offered when memory is disabled, or outside the gateway", async () => {
    expect((await turn({ memory: { search: { enabled: false } } })).tools).not.toContain("memory_search");
    await Promise.all(services.splice(0).map((s) => s.close()));
    fs.rmSync(root, { recursive: true, force: true });
    expect((await turn({}, { withMemory: false })).tools).not.toContain("memory_search");
  });

  it("memory_search fails closed with MEMORY_UNAVAILABLE when a named provider cannot be reached", async () => {
    server.enqueue({ toolCalls: [{ id: "s1", name: "memory_search", arguments: { query: "anything at all" } }] }, { text: "I could not check." });
    const { result } = await turn({ memory: { search: { provider: "fake", remote: { baseUrl: "http://127.0.0.1:9/v1" } } } });
    const toolResult = result.messages.find((m) => m.role === "toolResult") as { isError: boolean; content: { text: string }[] };
    expect(toolResult.isError).toBe(true);
    expect(JSON.parse(toolResult.content[0]!.text)).toMatchObject({ error: "MEMORY_UNAVAILABLE" });
    expect(toolResult.content[0]!.text).toContain("memory unavailable: embedding provider fake");
  }, 20_000);
});
