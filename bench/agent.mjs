// Agent-runtime figures: loop overhead without model time, system prompt build with 20 skills,
// and the size of the model request for a plain "hi" with the default workspace.
// Imports the unbundled tsc output (dist/src/agents, dist/src/models): the same code the bundle holds.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "./lib/spawn-gateway.mjs";
import { round } from "./lib/util.mjs";

const dist = (p) => import(pathToFileURL(path.join(REPO_ROOT, "dist", "src", p)).href);

const ZERO_USAGE = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };

/** A provider that answers instantly: a text turn, or one tool call then text. */
function instantModel(withTool) {
  return async function* (request) {
    const lastIsUser = request.messages.at(-1).role === "user";
    if (withTool && lastIsUser) {
      yield {
        type: "done",
        stopReason: "toolUse",
        message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "echo", arguments: { value: "x" } }], usage: ZERO_USAGE, timestamp: 0 },
      };
      return;
    }
    yield { type: "text_delta", delta: "ok" };
    yield { type: "done", stopReason: "stop", message: { role: "assistant", content: [{ type: "text", text: "ok" }], usage: ZERO_USAGE, timestamp: 0 } };
  };
}

async function timeRuns(fn, iterations) {
  for (let i = 0; i < Math.min(200, iterations); i++) await fn(); // warm up the JIT
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return {
    meanMs: round(samples.reduce((a, b) => a + b, 0) / samples.length, 4),
    p50Ms: round(samples[Math.floor(samples.length / 2)], 4),
    p95Ms: round(samples[Math.floor(samples.length * 0.95)], 4),
  };
}

export async function measureLoopOverhead() {
  const { runAgentLoop } = await dist("agents/runner/agent-loop.js");
  const { Type } = await import("@sinclair/typebox");
  const { createToolResultShaper } = await dist("agents/tool-result-shaper.js");
  const { createLoopDetector } = await dist("agents/loop-detection/index.js");
  const echo = { name: "echo", description: "echo", parameters: Type.Object({ value: Type.String() }), execute: async (a) => ({ content: [{ type: "text", text: a.value }] }) };
  const base = {
    runId: "bench",
    model: { ref: "b/m", provider: "b", id: "m", api: "openai-completions", contextWindow: 100000, maxTokens: 1000, reasoning: false, input: ["text"] },
    systemPrompt: "x".repeat(6000),
    history: [],
    prompt: { role: "user", content: "hi", timestamp: 0 },
    tools: [echo],
    toolSpecs: [{ name: "echo", description: "echo", parameters: {} }],
    toolContext: { agentId: "main", workspaceDir: os.tmpdir(), senderIsOwner: true, services: {} },
    emit: () => {},
  };
  const text = await timeRuns(() => runAgentLoop({ ...base, streamModel: instantModel(false) }), 3000);
  const tool = await timeRuns(() => runAgentLoop({ ...base, streamModel: instantModel(true), hooks: [createToolResultShaper(), createLoopDetector()] }), 2000);
  return { textTurn: text, oneToolRound: tool, perToolRoundMs: round(Math.max(0, tool.meanMs - text.meanMs), 4) };
}

export async function measurePromptBuild() {
  const { buildSystemPrompt } = await dist("agents/context/system-prompt.js");
  const { ensureWorkspace } = await dist("agents/context/workspace.js");
  const { loadBootstrapFiles } = await dist("agents/context/bootstrap-files.js");
  const { discoverSkills } = await dist("agents/skills/discover-skills.js");
  const { filterSkills } = await dist("agents/skills/filter-skills.js");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-prompt-"));
  try {
    const workspaceDir = path.join(root, "ws");
    await ensureWorkspace(workspaceDir);
    for (let i = 0; i < 20; i++) {
      const dir = path.join(workspaceDir, "skills", `skill-${i}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, "SKILL.md"),
        `---\nname: skill-${i}\ndescription: Use when the user asks about topic ${i}. Not for anything else.\n---\n# Skill ${i}\nSteps.\n`,
      );
    }
    const tools = ["read", "write", "edit", "apply_patch", "exec", "process", "web_fetch"].map((name) => ({ name, summary: `The ${name} tool.` }));
    const bootstrap = await loadBootstrapFiles(workspaceDir, { maxCharsPerFile: 20000, maxTotalChars: 60000 });
    const discovered = await discoverSkills({ workspaceDir, stateDir: root, bundledDir: null });
    const skills = filterSkills(discovered.skills, {}).kept;
    const params = () => ({
      mode: "full",
      agentId: "main",
      tools,
      skills,
      memoryToolsAvailable: false,
      workspaceDir,
      bootstrap,
      runtime: { agentId: "main", host: "h", os: "linux", node: process.version, model: "a/b" },
      now: new Date(),
      timeZone: "UTC",
    });
    const buildOnly = await timeRuns(async () => buildSystemPrompt(params()), 2000);
    const withDiscovery = await timeRuns(async () => {
      const found = await discoverSkills({ workspaceDir, stateDir: root, bundledDir: null });
      const bs = await loadBootstrapFiles(workspaceDir, { maxCharsPerFile: 20000, maxTotalChars: 60000 });
      buildSystemPrompt({ ...params(), skills: filterSkills(found.skills, {}).kept, bootstrap: bs });
    }, 300);
    return { skills: skills.length, promptChars: buildSystemPrompt(params()).text.length, buildOnly, withDiscoveryAndFiles: withDiscovery };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** A minimal OpenAI-compatible endpoint that records the request and streams "hello". */
function captureServer() {
  const bodies = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "hello" }, finish_reason: null }] })}\n\n`,
      );
      res.write(`data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, bodies, port: server.address().port })));
}

export async function measureHiRequest() {
  const { runEmbeddedTurn } = await dist("agents/embedded-turn.js");
  const { validateConfig } = await dist("config/index.js");
  const { server, bodies, port } = await captureServer();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hi-"));
  try {
    const { config } = validateConfig(
      {
        agents: { defaults: { model: "fake/fake-model" } },
        models: { providers: { fake: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "sk-bench", api: "openai-completions" } } },
        // OpenClaw offers the browser tool by default wherever Chromium is installed; the bench measures the turn without it.
        browser: { enabled: false },
      },
      {},
    );
    const result = await runEmbeddedTurn({ config, stateDir, env: {}, message: "hi", senderIsOwner: true });
    const body = bodies.at(-1) ?? "";
    const parsed = JSON.parse(body || "{}");
    return {
      ok: result.payloads[0]?.text === "hello",
      requestBytes: Buffer.byteLength(body),
      systemPromptChars: parsed.messages?.[0]?.content?.length ?? null,
      toolsBytes: Buffer.byteLength(JSON.stringify(parsed.tools ?? [])),
      tools: (parsed.tools ?? []).length,
    };
  } finally {
    server.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
