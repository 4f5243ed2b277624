import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * Aliases match in any case (docs/configuration.md), so one alias given to two models (`fast`
 * and `Fast` too) can reach only the first: the load warns, naming both models and which wins.
 */

async function validate(models: Record<string, unknown>): ReturnType<typeof runCli> {
  const stateDir = makeTempDir();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ agents: { defaults: { models } } }));
  return runCli(["config", "validate"], { OPENCLAW_STATE_DIR: stateDir });
}

describe("one alias for two models", () => {
  it("warns with both models and the one /model picks; distinct aliases give no warning", { timeout: 30_000 }, async () => {
    const twice = await validate({ "openai/gpt-4.1": { alias: "fast" }, "anthropic/claude-haiku-4-5": { alias: "Fast" }, "openai/o3": { alias: "deep" } });
    expect(twice.code).toBe(0);
    expect(twice.output).toContain(
      'warning: agents.defaults.models: the alias "fast" is given to openai/gpt-4.1 and anthropic/claude-haiku-4-5 (aliases match in any case), so it always means openai/gpt-4.1: give each model its own alias',
    );
    expect(twice.output.match(/warning:/g)).toHaveLength(1);

    const distinct = await validate({ "openai/gpt-4.1": { alias: "fast" }, "openai/o3": { alias: "deep" } });
    expect(distinct.code).toBe(0);
    expect(distinct.output).not.toContain("warning:");
  });
});
