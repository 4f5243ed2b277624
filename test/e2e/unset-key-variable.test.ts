import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * `apiKey: ${NAME}` with NAME not set where the gateway runs (a service started without the
 * shell's environment) loads with a warning and leaves the text "${NAME}" (docs/configuration.md).
 * That text is no key: it is never sent to the provider, and a turn left without a key names the
 * variable and where to set it, instead of failing with the provider's 401.
 */

const servers = useFakeServers();

function stateWith(apiKey: string): string {
  const stateDir = makeTempDir();
  const provider = { baseUrl: `${servers.model.url}/v1`, api: "openai-completions", models: [{ id: "fake-model" }], apiKey };
  const config = { agents: { defaults: { workspace: path.join(stateDir, "ws"), model: "fake/fake-model" } }, models: { providers: { fake: provider } } };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  return stateDir;
}

describe("apiKey: ${NAME} with NAME not set", () => {
  it("sends nothing and names the variable", { timeout: 30_000 }, async () => {
    const stateDir = stateWith("${M15_FAKE_KEY}");
    const before = servers.model.requests.length;
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: stateDir, M15_FAKE_KEY: undefined }, 30_000);
    expect(res.code).toBe(1);
    expect(res.output).toContain(
      'No API key for provider "fake" (model fake/fake-model): models.providers.fake.apiKey is "${M15_FAKE_KEY}", and M15_FAKE_KEY is not set in the gateway\'s environment. Set it where the gateway runs (a service\'s environment too), or write the key itself in the config.',
    );
    expect(servers.model.requests.length).toBe(before);
  });

  it("another key of the provider is used instead", { timeout: 30_000 }, async () => {
    const stateDir = stateWith("${M15_FAKE_KEY}");
    servers.model.enqueue({ text: "answered" });
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: stateDir, M15_FAKE_KEY: undefined, FAKE_API_KEY: "sk-env-key-9876" }, 30_000);
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain("answered");
    expect(servers.model.requests.at(-1)?.headers.authorization).toBe("Bearer sk-env-key-9876");
  });
});
