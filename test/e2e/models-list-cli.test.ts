import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

/** The built CLI with stdout and stderr kept apart. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: cleanEnv(env), timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

// A model on this machine with a key, one elsewhere whose key only the gateway's environment has;
// an alias for one, and an agent with a model of its own.
const config = {
  agents: {
    defaults: { model: { primary: "box/llama3.2", fallbacks: ["far/big-model"] }, models: { "box/qwen3": { alias: "vision" } } },
    entries: { main: { default: true }, seer: { model: "box/qwen3" } },
  },
  models: {
    providers: {
      box: {
        baseUrl: "http://127.0.0.1:1/v1",
        apiKey: "local",
        api: "openai-completions",
        models: [
          { id: "llama3.2", name: "Llama 3.2", contextWindow: 32768 },
          { id: "qwen3", name: "Qwen 3", contextWindow: 131072, input: ["text", "image"] },
        ],
      },
      far: { baseUrl: "https://models.example.com/v1", api: "openai-completions", models: [{ id: "big-model", name: "Big Model", contextWindow: 200000 }] },
    },
  },
};

const HEADER = "Model                                      Input      Ctx         Local Auth  Tags";

describe("openclaw models list", () => {
  let gw: GatewayProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    const stateDir = makeTempDir("openclaw-models-list-");
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    gw = await startGateway({ stateDir, env: { FAR_API_KEY: "sk-far" } });
    env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token! };
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it("prints the gateway's models in OpenClaw's columns (availability as the gateway sees it)", async () => {
    const res = await cli(["models", "list"], env);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    // far/big-model has a key in the gateway's environment only: Auth comes from the gateway.
    expect(res.stdout).toBe(
      [
        HEADER,
        "box/llama3.2                               text       33k         yes   yes   default",
        "box/qwen3                                  text+image 131k        yes   yes   configured,alias:vision",
        "far/big-model                              text       200k        no    yes   fallback#1",
        "",
      ].join("\n"),
    );
  });

  it("--json, --plain, --provider and --local", async () => {
    const json = await cli(["models", "list", "--json"], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      count: 3,
      models: [
        { key: "box/llama3.2", name: "Llama 3.2", input: "text", contextWindow: 32768, local: true, available: true, tags: ["default"] },
        { key: "box/qwen3", name: "Qwen 3", input: "text+image", contextWindow: 131072, local: true, available: true, tags: ["configured", "alias:vision"] },
        { key: "far/big-model", name: "Big Model", input: "text", contextWindow: 200000, local: false, available: true, tags: ["fallback#1"] },
      ],
    });
    expect((await cli(["models", "list", "--plain"], env)).stdout).toBe("box/llama3.2\nbox/qwen3\nfar/big-model\n");
    expect((await cli(["models", "list", "--plain", "--provider", "far"], env)).stdout).toBe("far/big-model\n");
    expect((await cli(["models", "list", "--plain", "--local"], env)).stdout).toBe("box/llama3.2\nbox/qwen3\n");
    expect((await cli(["models", "list", "--provider", "nobody"], env)).stdout).toBe("No models found.\n");
  });

  it("--agent tags the models by that agent's chain", async () => {
    const res = await cli(["models", "list", "--agent", "seer", "--json"], env);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).models.map((m: { key: string; tags: string[] }) => [m.key, m.tags])).toEqual([
      ["box/llama3.2", []],
      ["box/qwen3", ["default", "configured", "alias:vision"]],
      ["far/big-model", []],
    ]);
  });

  it("refuses what it cannot honour, with the reason", async () => {
    const both = await cli(["models", "list", "--json", "--plain"], env);
    expect(both.code).toBe(1);
    expect(JSON.parse(both.stdout).error.message).toBe("Choose either --json or --plain, not both.");
    const refresh = await cli(["models", "list", "--refresh"], env);
    expect(refresh.code).toBe(1);
    expect(refresh.stderr).toContain("--refresh: this gateway does not discover provider models");
    const label = await cli(["models", "list", "--provider", "Big Provider"], env);
    expect(label.code).toBe(1);
    expect(label.stderr).toContain('Invalid provider filter "Big Provider"');
    const agent = await cli(["models", "list", "--agent", "nobody"], env);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toContain('unknown agent "nobody"');
    expect(agent.stdout).toBe("");
  });

  it("without a running gateway lists the local config's models and says so on stderr", async () => {
    const stateDir = makeTempDir("openclaw-models-list-local-");
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    const res = await cli(["models", "list", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(`Gateway is not running. Showing the models the local config names (${path.join(stateDir, "openclaw.json")}).\n`);
    // Without FAR_API_KEY here, far/big-model has no key.
    expect(JSON.parse(res.stdout).models.map((m: { key: string; available: boolean }) => [m.key, m.available])).toEqual([
      ["box/llama3.2", true],
      ["box/qwen3", true],
      ["far/big-model", false],
    ]);
  });

  it("a named gateway that does not answer is an error, not the local list", async () => {
    const res = await cli(["models", "list", "--port", "1"], env);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain("no gateway is running there");
  });
});
