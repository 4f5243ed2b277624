import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * auth-profiles.json is the user's file (docs/models.md): the gateway writes only the cooldowns
 * into it, and never loses what the user wrote there, through the real `agent --local` turn.
 */

const servers = useFakeServers();

/** A trailing comma: the kind of slip a file edited by hand has. */
const BROKEN_PROFILES = '{\n  "version": 1,\n  "profiles": {\n    "fake:work": { "type": "api_key", "provider": "fake", "key": "sk-work-key-5678" },\n  }\n}\n';

function stateWith(profilesText: string, providerKey?: string): { stateDir: string; profilesFile: string } {
  const stateDir = makeTempDir();
  const provider = { baseUrl: `${servers.model.url}/v1`, api: "openai-completions", models: [{ id: "fake-model" }], ...(providerKey ? { apiKey: providerKey } : {}) };
  const config = { agents: { defaults: { workspace: path.join(stateDir, "ws"), model: { primary: "fake/fake-model" } } }, models: { providers: { fake: provider } } };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  const profilesFile = path.join(stateDir, "agents", "main", "agent", "auth-profiles.json");
  fs.mkdirSync(path.dirname(profilesFile), { recursive: true });
  fs.writeFileSync(profilesFile, profilesText, { mode: 0o600 });
  return { stateDir, profilesFile };
}

describe("auth-profiles.json", () => {
  it("a file that is not valid JSON is left as written when a key fails (its cooldown is not saved over it)", async () => {
    const { stateDir, profilesFile } = stateWith(BROKEN_PROFILES, "sk-config-key-1234");
    servers.model.enqueue({ status: 401 });
    // The CLI exits once everything it started is done: a cooldown write included.
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
    expect(res.code).toBe(1);
    expect(res.output).toContain("HTTP 401");
    expect(fs.readFileSync(profilesFile, "utf8")).toBe(BROKEN_PROFILES);
  });

  it("a turn whose only key is in an unreadable file says the file is broken and to fix it", async () => {
    const { stateDir, profilesFile } = stateWith(BROKEN_PROFILES);
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
    expect(res.code).toBe(1);
    expect(res.output).toContain(`No API key for provider "fake"`);
    expect(res.output).toContain(`${profilesFile} is not valid JSON`);
    expect(res.output).toContain("fix or remove it");
    expect(res.output).not.toContain("sk-work-key-5678");
  });

  it("a parse error is placed by line and column; the text around it, a key, is not quoted", async () => {
    const unquotedKey = '{\n  "profiles": {\n    "fake:work": { "type": "api_key", "provider": "fake", "key": sk-work-key-5678 }\n  }\n}\n';
    const { stateDir, profilesFile } = stateWith(unquotedKey, "sk-config-key-1234");
    const res = await runCli(["models", "status"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.output).toContain(`unreadable: ${profilesFile} is not valid JSON (line 3, column 66: invalid character 's'); fix or remove it.`);
    expect(res.output).not.toContain("sk-work");
  });

  it("a cooldown written into the file keeps the profiles and fields this gateway does not use (OpenClaw's oauth, lastGood)", async () => {
    const written = {
      version: 1,
      profiles: {
        "anthropic:me": { type: "oauth", provider: "anthropic", access: "at-1", refresh: "rt-1", expires: 1_900_000_000_000, email: "me@example.com" },
        "fake:vault": { type: "api_key", provider: "fake", keyRef: { source: "env", id: "VAULT_KEY" } },
      },
      lastGood: { anthropic: "anthropic:me" },
      usageStats: { "anthropic:me": { lastUsed: 1_800_000_000_000 } },
    };
    const { stateDir, profilesFile } = stateWith(JSON.stringify(written), "sk-config-key-1234");
    servers.model.enqueue({ status: 401 });
    const res = await runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
    expect(res.code).toBe(1);
    const after = JSON.parse(fs.readFileSync(profilesFile, "utf8"));
    expect(after.usageStats["fake:config"]).toMatchObject({ errorCount: 1, cooldownReason: "auth" });
    expect({ ...after, usageStats: { "anthropic:me": after.usageStats["anthropic:me"] } }).toEqual(written);
  });
});
