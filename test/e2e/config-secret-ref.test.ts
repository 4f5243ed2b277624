import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * OpenClaw's SecretRef objects (`{source, provider, id}`) where a string is expected are not
 * supported (docs/configuration.md): the error at that key says so and how to write the same
 * secret here, `${NAME}` for an environment variable.
 */

async function validate(config: Record<string, unknown>): ReturnType<typeof runCli> {
  const stateDir = makeTempDir();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  return runCli(["config", "validate"], { OPENCLAW_STATE_DIR: stateDir });
}

describe("a SecretRef object where a string is expected", () => {
  it("is refused at its key with the ${NAME} to write instead; other sources are told to write the value or a variable", { timeout: 30_000 }, async () => {
    const res = await validate({
      models: { providers: { openai: { apiKey: { source: "env", provider: "default", id: "OPENAI_API_KEY" } } } },
      gateway: { auth: { token: { source: "file", provider: "vault", id: "/gateway/token" } } },
    });
    expect(res.code).toBe(78);
    expect(res.output).toContain(
      'models.providers.openai.apiKey: expected string; SecretRef objects are not supported by this gateway: write "${OPENAI_API_KEY}" to read that environment variable',
    );
    expect(res.output).toContain(
      'gateway.auth.token: expected string; SecretRef objects are not supported by this gateway: write the value, or "${NAME}" to read an environment variable',
    );
    expect(res.output).not.toContain("/gateway/token");
  });
});
