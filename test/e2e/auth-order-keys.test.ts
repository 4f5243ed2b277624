import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * An `auth.order` (or the profiles file's `order`) that names none of a provider's keys leaves
 * the provider without a key to use (docs/models.md): the turn says it is the order that left
 * them out, which keys there are, and what to change, instead of asking for a key that is set.
 */

const servers = useFakeServers();

function stateWith(extra: Record<string, unknown>, profilesFileOrder?: Record<string, string[]>): string {
  const stateDir = makeTempDir();
  const provider = { baseUrl: `${servers.model.url}/v1`, api: "openai-completions", models: [{ id: "fake-model" }], apiKey: "sk-config-key-1234" };
  const config = { agents: { defaults: { workspace: path.join(stateDir, "ws"), model: { primary: "fake/fake-model" } } }, models: { providers: { fake: provider } }, ...extra };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  if (profilesFileOrder) {
    const profilesFile = path.join(stateDir, "agents", "main", "agent", "auth-profiles.json");
    fs.mkdirSync(path.dirname(profilesFile), { recursive: true });
    fs.writeFileSync(profilesFile, JSON.stringify({ version: 1, profiles: {}, order: profilesFileOrder }), { mode: 0o600 });
  }
  return stateDir;
}

describe("an auth order that names none of the provider's keys", () => {
  it("a turn names auth.order.<provider>, the ids it names and the keys there are, and sends nothing", async () => {
    const stateDir = stateWith({ auth: { order: { fake: ["fake:wrok"] } } });
    const before = servers.model.requests.length;
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: stateDir, FAKE_API_KEY: "sk-env-key-5678" }, 30_000);
    expect(res.code).toBe(1);
    expect(res.output).toContain(
      `No key of provider "fake" is in auth.order.fake, which names only fake:wrok (its keys: fake:config, fake:env). Add one of them to auth.order.fake, or remove auth.order.fake to use them all.`,
    );
    expect(res.output).not.toContain("sk-config");
    expect(res.output).not.toContain("sk-env");
    expect(servers.model.requests.length).toBe(before);
  });

  it("when the fallbacks fail too, the attempts list says why the first had no key", async () => {
    const other = { baseUrl: `${servers.model.url}/v1`, api: "openai-completions", models: [{ id: "m2" }], apiKey: "sk-other-key-4321" };
    const stateDir = stateWith({ auth: { order: { fake: ["fake:wrok"] } } });
    const configFile = path.join(stateDir, "openclaw.json");
    const config = JSON.parse(fs.readFileSync(configFile, "utf8"));
    config.models.providers.other = other;
    config.agents.defaults.model = { primary: "fake/fake-model", fallbacks: ["other/m2"] };
    fs.writeFileSync(configFile, JSON.stringify(config));
    for (let i = 0; i < 3; i += 1) servers.model.enqueue({ status: 500 }); // the last option gets the SDK's 2 retries
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
    expect(res.code).toBe(1);
    expect(res.output).toContain("All models failed (2 attempts): fake/fake-model: ");
    expect(res.output).toContain(`No key of provider "fake" is in auth.order.fake, which names only fake:wrok (its keys: fake:config).`);
  });

  it("an order in the profiles file is named by its place in that file", async () => {
    const stateDir = stateWith({}, { fake: ["fake:gone"] });
    const profilesFile = path.join(stateDir, "agents", "main", "agent", "auth-profiles.json");
    const res = await runCli(["models", "status"], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
    expect(res.code).toBe(1);
    expect(res.output).toContain(
      `No key of provider "fake" is in order.fake of ${profilesFile}, which names only fake:gone (its keys: fake:config). Add one of them to order.fake of ${profilesFile}, or remove order.fake of ${profilesFile} to use them all.`,
    );
  });
});
