import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";

const servers = useFakeServers();

function setup(api: "openai-completions" | "anthropic-messages") {
  const stateDir = makeTempDir();
  const workspace = path.join(stateDir, "ws");
  const baseUrl = api === "openai-completions" ? `${servers.model.url}/v1` : servers.model.url;
  const config = {
    agents: { defaults: { workspace, model: { primary: "fake/fake-model" } } },
    models: { providers: { fake: { baseUrl, apiKey: "sk-local-secret", api, models: [{ id: "fake-model", contextWindow: 120000, maxTokens: 4096 }] } } },
  };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  return { stateDir, workspace, env: { OPENCLAW_STATE_DIR: stateDir } };
}

async function agent(env: Record<string, string>, message: string, extra: string[] = []) {
  const res = await runCli(["agent", "--local", "--json", "-m", message, ...extra], env, 30_000);
  let json: any;
  try {
    json = JSON.parse(res.output.slice(res.output.indexOf("{")));
  } catch {
    json = undefined;
  }
  return { ...res, json };
}

describe("openclaw agent --local", () => {
  it("without a model says exactly what to set, and exits 1", async () => {
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: makeTempDir() });
    expect(res.code).toBe(1);
    expect(res.output).toContain("No model configured");
    expect(res.output).toContain("agents.defaults.model");
    expect(res.output).not.toMatch(/\n\s+at /);
  });

  for (const api of ["openai-completions", "anthropic-messages"] as const) {
    describe(api, () => {
      it("answers a plain turn; the request is small and carries the prompt and tools", async () => {
        const { env, workspace } = setup(api);
        servers.model.enqueue({ text: "Hello from the fake model." });
        const res = await agent(env, "hi");
        expect(res.code).toBe(0);
        expect(res.json.payloads).toEqual([{ text: "Hello from the fake model.", mediaUrl: null }]);
        expect(res.json).toMatchObject({ status: "ok", meta: { stopReason: "stop", agentMeta: { agentId: "main", sessionKey: "agent:main:main", model: "fake/fake-model" } } });
        const request = servers.model.requests.at(-1)!;
        const body = JSON.stringify(request.body);
        expect(Buffer.byteLength(body)).toBeLessThan(16 * 1024);
        expect(body).toContain("AGENTS.md");
        const toolNames = api === "openai-completions" ? request.body.tools.map((t: any) => t.function.name) : request.body.tools.map((t: any) => t.name);
        expect(toolNames).toEqual(expect.arrayContaining(["read", "write", "edit", "apply_patch", "exec", "process", "web_fetch"]));
        // First start created the workspace with the bootstrap files.
        expect(fs.existsSync(path.join(workspace, "AGENTS.md"))).toBe(true);
        expect(fs.existsSync(path.join(workspace, "SOUL.md"))).toBe(true);
      });

      it("runs tool calls (write, then read) and answers with the result", async () => {
        const { env, workspace } = setup(api);
        servers.model.enqueue(
          { toolCalls: [{ name: "write", arguments: { path: "notes/todo.txt", content: "buy milk" } }] },
          {
            toolCalls: [
              { name: "read", arguments: { path: "notes/todo.txt" } },
              { name: "read", arguments: { path: "../../etc/passwd" } },
            ],
          },
          { text: "Saved and read back." },
        );
        const res = await agent(env, "save a note");
        expect(res.code).toBe(0);
        expect(res.json.payloads[0].text).toBe("Saved and read back.");
        expect(fs.readFileSync(path.join(workspace, "notes", "todo.txt"), "utf8")).toBe("buy milk");
        const third = JSON.stringify(servers.model.requests[2]!.body);
        expect(third).toContain("buy milk");
        expect(third).toContain("PATH_OUTSIDE_WORKSPACE");
        expect(third).not.toContain("root:x:0:0");
      });

      it("a provider 500 ends the turn with a clear error and exit 1", async () => {
        const { env } = setup(api);
        // The only model and key: the SDK retries twice (docs/models.md), so the provider fails three times.
        servers.model.enqueue(...Array.from({ length: 3 }, () => ({ status: 500, headers: { "retry-after-ms": "10" } })));
        const res = await agent(env, "hi");
        expect(res.code).toBe(1);
        expect(res.json.meta.stopReason).toBe("error");
        expect(res.json.meta.error.kind).toBe("server");
        expect(res.output).not.toContain("sk-local-secret");
      });

      it("a malformed stream ends the turn with a clear error, no crash", async () => {
        const { env } = setup(api);
        servers.model.enqueue({ malformed: "garbage" });
        const res = await agent(env, "hi");
        expect(res.code).toBe(1);
        expect(res.json.meta.error.kind).toBe("malformed");
      });
    });
  }

  it("the run timeout stops a model that never answers", async () => {
    const { env } = setup("openai-completions");
    servers.model.enqueue({ text: "too late", delayMs: 20_000 });
    const started = Date.now();
    const res = await agent(env, "hi", ["--timeout", "1"]);
    expect(res.code).toBe(1);
    expect(["aborted", "timeout"]).toContain(res.json.meta.stopReason);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe("openclaw tools explain", () => {
  it("shows the allowed tools and which layer removed each other one", async () => {
    const stateDir = makeTempDir();
    fs.writeFileSync(
      path.join(stateDir, "openclaw.yaml"),
      [
        "tools:",
        '  allow: ["group:fs", "group:runtime", "web_fetch"]',
        "  byProvider:",
        '    google: { deny: ["exec"] }',
        "agents:",
        "  defaults:",
        "    model: google/gemini-2.0-flash",
        "  list:",
        "    - id: main",
        "    - id: restricted",
        '      tools: { deny: ["process", "edit"] }',
        "",
      ].join("\n"),
    );
    const res = await runCli(["tools", "explain", "--agent", "restricted", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(0);
    const json = JSON.parse(res.output);
    expect(JSON.stringify(json)).toContain("agents.list[restricted].tools.deny");
    const text = await runCli(["tools", "explain", "--agent", "restricted"], { OPENCLAW_STATE_DIR: stateDir });
    expect(text.output).toContain("Allowed (4): read, write, apply_patch, web_fetch");
    expect(text.output).toMatch(/exec\s+— removed by tools\.byProvider\.google\.deny/);
    const notOwner = await runCli(["tools", "explain", "--not-owner"], { OPENCLAW_STATE_DIR: stateDir });
    expect(notOwner.output).toMatch(/process\s+— removed by owner-only tools/);
  });
});
