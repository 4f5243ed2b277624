import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * `openclaw models status` is where a user looks when turns fail for want of a key or a model
 * (docs/models.md): it shows the chain and each provider's keys even then, and ends with why no
 * turn can run (exit 1), instead of printing only that one line.
 */

function stateWith(config: Record<string, unknown>): string {
  const stateDir = makeTempDir();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  return stateDir;
}

const provider = { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", models: [{ id: "m1" }] };

describe("models status when no turn can run", () => {
  it("with no key anywhere: the chain, the provider with (no key), then the reason", { timeout: 30_000 }, async () => {
    const stateDir = stateWith({ agents: { defaults: { model: { primary: "fake/m1", fallbacks: ["nowhere/x"] } } }, models: { providers: { fake: provider } } });
    const res = await runCli(["models", "status"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(1);
    expect(res.output).toContain('Model chain:\n  1. fake/m1\n  2. nowhere/x — Unknown model provider "nowhere"');
    expect(res.output).toContain("fake:\n  (no key)");
    expect(res.output).toContain('No API key for provider "fake"');

    const json = await runCli(["models", "status", "--json"], { OPENCLAW_STATE_DIR: stateDir });
    expect(json.code).toBe(1);
    const status = JSON.parse(json.output);
    expect(status.chain.map((row: { ref: string }) => row.ref)).toEqual(["fake/m1", "nowhere/x"]);
    expect(status.providers).toEqual({ fake: [] });
    expect(status.problem).toContain('No API key for provider "fake"');
  });

  it("with keys an auth.order leaves out: the order's message after the chain", { timeout: 30_000 }, async () => {
    const stateDir = stateWith({
      agents: { defaults: { model: "fake/m1" } },
      models: { providers: { fake: { ...provider, apiKey: "sk-fake-key-1234" } } },
      auth: { order: { fake: ["fake:x"] } },
    });
    const res = await runCli(["models", "status"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(1);
    expect(res.output).toContain("Model chain:\n  1. fake/m1");
    expect(res.output).toContain('No key of provider "fake" is in auth.order.fake');
    expect(res.output).not.toContain("sk-fake-key-1234");
  });
});
