import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { chatRequests } from "../helpers/reliability.js";

/**
 * OpenClaw's SecretRefs (`{source, provider, id}`) at credential keys, read from the environment,
 * a private file or a resolver command (secrets.providers; docs/configuration.md, Secrets). The
 * gateway, its CLI and `config validate` all read them; `openclaw secrets reload` makes the running
 * gateway read them again. Real gateway process, real resolver child process, fake model server.
 */

const servers = useFakeServers();

/** A resolver on OpenClaw's exec protocol that answers from a JSON file the test rewrites (a vault, rotated). */
function writeResolver(dir: string): { command: string; vault: string } {
  const vault = path.join(dir, "vault.json");
  const command = path.join(dir, "resolver.mjs");
  fs.writeFileSync(
    command,
    `#!${process.execPath}
import fs from "node:fs";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const request = JSON.parse(input);
// A vault held for one process (the gateway) answers it only once released: a test sees what the gateway does meanwhile.
const holdFor = fs.existsSync(process.env.VAULT_FILE + ".hold") ? fs.readFileSync(process.env.VAULT_FILE + ".hold", "utf8") : "";
if (holdFor === String(process.ppid)) {
  fs.writeFileSync(process.env.VAULT_FILE + ".started", "");
  while (!fs.existsSync(process.env.VAULT_FILE + ".release")) await new Promise((resolve) => setTimeout(resolve, 20));
}
const vault = JSON.parse(fs.readFileSync(process.env.VAULT_FILE, "utf8"));
const values = {}, errors = {};
for (const id of request.ids) {
  if (id in vault) values[id] = vault[id];
  else errors[id] = { code: "NOT_FOUND", message: "nothing stored under " + id };
}
fs.appendFileSync(process.env.VAULT_FILE + ".calls", JSON.stringify({ provider: request.provider, ids: request.ids, home: process.env.HOME ?? null }) + "\\n");
process.stdout.write(JSON.stringify({ protocolVersion: 1, values, errors }));
`,
    { mode: 0o700 },
  );
  return { command, vault };
}

function writePrivate(file: string, text: string): void {
  fs.writeFileSync(file, text, { mode: 0o600 });
}

async function chat(httpUrl: string, token: string, text: string): Promise<Response> {
  return fetch(`${httpUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ model: "openclaw", user: "secret-ref", messages: [{ role: "user", content: text }] }),
  });
}

describe("SecretRefs in the config", () => {
  it("the gateway, its CLI and config.get read them; secrets reload rotates a key; a ref that fails keeps the running secrets", { timeout: 90_000 }, async () => {
    const stateDir = makeTempDir("openclaw-secret-ref-");
    const { command, vault } = writeResolver(stateDir);
    writePrivate(vault, JSON.stringify({ "providers/fake/apiKey": "sk-vault-one-4411" }));
    const tokenFile = path.join(stateDir, "gateway-token");
    writePrivate(tokenFile, "gw-token-from-file-7781\n");
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir));
    config.secrets = {
      providers: {
        tokenfile: { source: "file", path: tokenFile, mode: "singleValue" },
        vault: { source: "exec", command, env: { VAULT_FILE: vault }, timeoutMs: 20_000 },
      },
    };
    config.gateway.auth = { token: { source: "file", provider: "tokenfile", id: "value" } };
    config.models.providers.fake.apiKey = { source: "exec", provider: "vault", id: "providers/fake/apiKey" };
    config.models.providers.fake.headers = { "X-Team": { source: "env", provider: "default", id: "SECRET_REF_TEAM" } };
    const gateway = servers.keep(
      await startGateway({ stateDir, token: null, env: { SECRET_REF_TEAM: "team-header-5530" }, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }),
    );
    const token = "gw-token-from-file-7781";

    // The gateway token is the file's content (trailing newline dropped); the model gets the vault's key and the env header.
    expect((await chat(gateway.httpUrl, "not-the-token", "hi")).status).toBe(401);
    servers.model.enqueue({ text: "first answer" });
    const first = await chat(gateway.httpUrl, token, "first");
    expect(first.status, await first.clone().text()).toBe(200);
    const firstRequest = chatRequests(servers.model).at(-1)!;
    expect(firstRequest.headers.authorization).toBe("Bearer sk-vault-one-4411");
    expect(firstRequest.headers["x-team"]).toBe("team-header-5530");
    // The resolver got only what its provider gives it: no HOME, nothing of the gateway's environment.
    const calls = fs
      .readFileSync(`${vault}.calls`, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(calls[0]).toEqual({ provider: "vault", ids: ["providers/fake/apiKey"], home: null });

    // The CLI reads the token through the same ref (no token flag, no variable).
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_PORT: String(gateway.port), SECRET_REF_TEAM: "team-header-5530" };
    const got = await runCli(["gateway", "call", "config.get"], env);
    expect(got.code, got.output).toBe(0);
    const snapshot = JSON.parse(got.output);
    // A shell without the header's variable: the file is invalid there, and its gateway section (with the token's ref) still reaches the gateway.
    const elsewhere = await runCli(["gateway", "call", "health"], { ...env, SECRET_REF_TEAM: undefined });
    expect(elsewhere.code, elsewhere.output).toBe(0);
    expect(elsewhere.output).toContain("models.providers.fake.headers.X-Team: cannot read SecretRef env:default:SECRET_REF_TEAM");
    expect(elsewhere.output).toContain("this command uses its gateway section only");
    expect(snapshot.valid).toBe(true);
    expect(snapshot.parsed.models.providers.fake.apiKey).toEqual({ source: "exec", provider: "vault", id: "providers/fake/apiKey" });
    expect(snapshot.config.models.providers.fake.apiKey).toBe("__OPENCLAW_REDACTED__");
    // A header whose name says nothing about secrets is still hidden: its value came from a ref.
    expect(snapshot.config.models.providers.fake.headers["X-Team"]).toBe("__OPENCLAW_REDACTED__");
    expect(JSON.stringify(snapshot)).not.toMatch(/sk-vault-one-4411|team-header-5530|gw-token-from-file-7781/);
    const header = await runCli(["config", "get", "models.providers.fake.headers", "--json"], env);
    expect(JSON.parse(header.output)).toEqual({ "X-Team": "__OPENCLAW_REDACTED__" });

    // Rotated in the vault: nothing changes until `secrets reload`, which applies it at once.
    writePrivate(vault, JSON.stringify({ "providers/fake/apiKey": "sk-vault-two-9902" }));
    servers.model.enqueue({ text: "still the old key" });
    expect((await chat(gateway.httpUrl, token, "before reload")).status).toBe(200);
    expect(chatRequests(servers.model).at(-1)!.headers.authorization).toBe("Bearer sk-vault-one-4411");
    const reload = await runCli(["secrets", "reload", "--json"], env);
    expect(reload.code, reload.output).toBe(0);
    const answer = JSON.parse(reload.output);
    expect(answer).toMatchObject({ ok: true, applied: true, changedPaths: ["models.providers.fake.apiKey"] });
    expect(reload.output).not.toContain("sk-vault");
    servers.model.enqueue({ text: "new key" });
    expect((await chat(gateway.httpUrl, token, "after reload")).status).toBe(200);
    expect(chatRequests(servers.model).at(-1)!.headers.authorization).toBe("Bearer sk-vault-two-9902");
    expect((await runCli(["secrets", "reload"], env)).output).toContain("Secrets reloaded.\nNo secret changed.");

    // While a slow resolver runs for the gateway's `secrets.reload`, the gateway goes on answering turns.
    fs.writeFileSync(`${vault}.hold`, String(gateway.proc.pid));
    writePrivate(vault, JSON.stringify({ "providers/fake/apiKey": "sk-vault-three-3303" }));
    let reloadDone = false;
    const heldReload = runCli(["secrets", "reload", "--json"], env, 30_000).then((result) => {
      reloadDone = true;
      return result;
    });
    while (!fs.existsSync(`${vault}.started`)) await new Promise((resolve) => setTimeout(resolve, 20));
    servers.model.enqueue({ text: "served meanwhile" });
    const meanwhile = await fetch(`${gateway.httpUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ model: "openclaw", user: "secret-ref", messages: [{ role: "user", content: "while the vault is slow" }] }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(meanwhile.status).toBe(200);
    expect(reloadDone).toBe(false);
    expect(chatRequests(servers.model).at(-1)!.headers.authorization).toBe("Bearer sk-vault-two-9902");
    fs.writeFileSync(`${vault}.release`, "");
    const released = await heldReload;
    expect(released.code, released.output).toBe(0);
    expect(JSON.parse(released.output).changedPaths).toEqual(["models.providers.fake.apiKey"]);
    for (const marker of ["hold", "started", "release"]) fs.rmSync(`${vault}.${marker}`);
    writePrivate(vault, JSON.stringify({ "providers/fake/apiKey": "sk-vault-two-9902" }));
    expect((await runCli(["secrets", "reload"], env)).code).toBe(0);

    // The vault loses the key: the reload fails naming the key, the ref and the resolver's code, and the running key stays.
    writePrivate(vault, JSON.stringify({}));
    const failed = await runCli(["secrets", "reload"], env);
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain("secrets.reload failed; the running config and its secrets stay in use");
    expect(failed.output).toContain(`models.providers.fake.apiKey: cannot read SecretRef exec:vault:providers/fake/apiKey: resolver ${command} gave no value for it (NOT_FOUND)`);
    // The resolver's free-form message could quote a secret; it is never shown.
    expect(failed.output).not.toContain("nothing stored under");
    servers.model.enqueue({ text: "kept" });
    expect((await chat(gateway.httpUrl, token, "after failed reload")).status).toBe(200);
    expect(chatRequests(servers.model).at(-1)!.headers.authorization).toBe("Bearer sk-vault-two-9902");
    expect(gateway.output()).toContain("secrets.reload failed; keeping the running config");
    expect(gateway.output()).not.toMatch(/sk-vault|team-header-5530|gw-token-from-file-7781/);
  });
});

describe("a SecretRef that cannot be read", () => {
  async function validate(stateDir: string, config: Record<string, unknown>, env: Record<string, string | undefined> = {}) {
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    return runCli(["config", "validate"], { OPENCLAW_STATE_DIR: stateDir, ...env });
  }

  it("stops the load at its key with the reason and the fix, never the secret", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir("openclaw-secret-ref-bad-");
    const open = path.join(stateDir, "open.json");
    fs.writeFileSync(open, JSON.stringify({ telegram: "123:secret-in-open-file" }), { mode: 0o644 });
    fs.chmodSync(open, 0o644);
    const linked = path.join(stateDir, "resolver-link");
    const { command } = writeResolver(stateDir);
    fs.symlinkSync(command, linked);
    const res = await validate(
      stateDir,
      {
        secrets: {
          providers: {
            shared: { source: "file", path: open },
            linked: { source: "exec", command: linked },
          },
        },
        models: { providers: { openai: { apiKey: { source: "env", provider: "default", id: "SECRET_REF_UNSET_KEY" } } } },
        channels: { telegram: { botToken: { source: "file", provider: "shared", id: "/telegram" } } },
        gateway: { auth: { token: { source: "store", provider: "default", id: "GATEWAY_TOKEN" } }, remote: { token: { source: "exec", provider: "linked", id: "gw" } } },
        cron: { webhookToken: { source: "file", provider: "vault", id: "/cron" } },
        agents: { defaults: { workspace: { source: "env", id: "HOME" } } },
      },
      { SECRET_REF_UNSET_KEY: undefined },
    );
    expect(res.code).toBe(78);
    const lines = [
      "models.providers.openai.apiKey: cannot read SecretRef env:default:SECRET_REF_UNSET_KEY: environment variable SECRET_REF_UNSET_KEY is not set: export it, or set it in env.vars or the state dir's .env",
      `channels.telegram.botToken: cannot read SecretRef file:shared:/telegram: ${open} is open to group or others (mode 644): chmod 600 ${open}`,
      `gateway.auth.token: SecretRef source "store" (OpenClaw's shared secret store) is not supported by this gateway; use env, file or exec`,
      `gateway.remote.token: cannot read SecretRef exec:linked:gw: resolver ${linked} is a symlink: configure the real path (realpath ${linked})`,
      'cron.webhookToken: SecretRef file:vault:/cron: no file provider "vault": add secrets.providers.vault with source: "file"',
      "agents.defaults.workspace: a SecretRef is read only at credential keys (tokens, passwords, API keys, provider headers; docs/configuration.md, Secrets), not here",
    ];
    for (const line of lines) expect(res.output).toContain(line);
    expect(res.output).not.toContain("secret-in-open-file");
  });

  it("a provider with another source's key, or an exec command not given by its absolute path, is named and not run", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir("openclaw-secret-ref-provider-");
    const res = await validate(stateDir, {
      secrets: { providers: { vault: { source: "exec", command: "vault-resolver", path: "/tmp/x" } } },
      models: { providers: { openai: { apiKey: { source: "exec", provider: "vault", id: "openai" } } } },
    });
    expect(res.code).toBe(78);
    expect(res.output).toContain("secrets.providers.vault.path: exec providers do not take path");
    expect(res.output).toContain('secrets.providers.vault.command: expected an absolute path (run `realpath "$(command -v vault-resolver)"` for it)');
  });

  it("a file provider's JSON pointer and a singleValue file read, with env.vars standing in for the environment", { timeout: 30_000 }, async () => {
    const stateDir = makeTempDir("openclaw-secret-ref-good-");
    const file = path.join(stateDir, "secrets.json");
    writePrivate(file, JSON.stringify({ slack: { "bot/token": "xoxb-1-from-file", app: "xapp-1-from-file" } }));
    const res = await validate(stateDir, {
      env: { vars: { SECRET_REF_SIGNING: "signing-from-env-vars" } },
      secrets: { providers: { main: { source: "file", path: file } }, defaults: { file: "main" } },
      channels: {
        slack: {
          botToken: { source: "file", id: "/slack/bot~1token" },
          appToken: { source: "file", provider: "main", id: "/slack/app" },
          signingSecret: { source: "env", id: "SECRET_REF_SIGNING" },
        },
      },
    });
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain("Config valid");
  });
});
