import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { KEYS, startPtyCli } from "../helpers/pty-session.js";

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer({ apiKey: "sk-right", models: ["fake-model"] });
});
afterAll(async () => {
  await model?.close();
});

const fakeFlags = () => ["--provider", "fake", "--base-url", `${model.url}/v1`, "--api", "openai-completions", "--api-key-env", "FAKE_KEY", "--model", "fake-model"];

describe("openclaw onboard --non-interactive", () => {
  it("checks the provider with one request, writes a commented config and the token, says what to run next", async () => {
    const dir = makeTempDir();
    const before = model.requests.length;
    const { code, output } = await runCli(["onboard", "--non-interactive", ...fakeFlags(), "--port", "18801"], { OPENCLAW_STATE_DIR: dir, FAKE_KEY: "sk-right" });
    expect(code).toBe(0);
    expect(model.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
    const file = path.join(dir, "openclaw.yaml");
    const text = fs.readFileSync(file, "utf8");
    expect(text).toMatch(/^# OpenClaw gateway configuration, written by `openclaw onboard`/);
    expect(text).toContain('primary: "fake/fake-model"');
    expect(text).toContain('apiKey: "${FAKE_KEY}"');
    expect(text).not.toContain("sk-right");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const token = path.join(dir, "credentials", "gateway.token");
    expect(fs.statSync(token).mode & 0o777).toBe(0o600);
    expect(output).toContain(`Wrote ${file}`);
    expect(output).toMatch(/Next:\n\s+openclaw gateway start/);
    expect(output).not.toContain(fs.readFileSync(token, "utf8").trim());
    // The written config is valid and what the gateway would run with.
    const validate = await runCli(["config", "get", "gateway.port"], { OPENCLAW_STATE_DIR: dir });
    expect(validate.output.trim()).toBe("18801");
  });

  it("a refused key writes nothing and says why", async () => {
    const dir = makeTempDir();
    const { code, output } = await runCli(["onboard", "--non-interactive", ...fakeFlags()], { OPENCLAW_STATE_DIR: dir, FAKE_KEY: "sk-wrong" });
    expect(code).toBe(1);
    expect(output).toContain("provider check failed, nothing was written");
    expect(output).toContain("refused the API key (HTTP 401)");
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("--port 0 is refused before anything is written: the config needs a fixed port", async () => {
    const dir = makeTempDir();
    const { code, output } = await runCli(["onboard", "--non-interactive", ...fakeFlags(), "--port", "0"], { OPENCLAW_STATE_DIR: dir, FAKE_KEY: "sk-right" });
    expect(code).toBe(1);
    expect(output).toContain('--port: expected integer 1-65535, got "0"');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("an unset key variable is named, with the export that fixes it", async () => {
    const { code, output } = await runCli(["onboard", "--non-interactive", ...fakeFlags()], { OPENCLAW_STATE_DIR: makeTempDir() });
    expect(code).toBe(1);
    expect(output).toContain("export FAKE_KEY=");
  });

  it("keeps an existing config unless --force, then keeps the old one as .bak", async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, "openclaw.json"), '{"gateway":{"mode":"local"}}');
    const refused = await runCli(["onboard", "--non-interactive", ...fakeFlags()], { OPENCLAW_STATE_DIR: dir, FAKE_KEY: "sk-right" });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("--force");
    const forced = await runCli(["onboard", "--non-interactive", "--force", ...fakeFlags()], { OPENCLAW_STATE_DIR: dir, FAKE_KEY: "sk-right" });
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, "openclaw.json.bak"), "utf8")).toContain('"mode":"local"');
    expect(fs.existsSync(path.join(dir, "openclaw.json"))).toBe(false);
  });

  it("a built-in provider needs no provider block; --json reports the result", async () => {
    const dir = makeTempDir();
    const { code, output } = await runCli(["onboard", "--non-interactive", "--provider", "anthropic", "--skip-check", "--json"], { OPENCLAW_STATE_DIR: dir });
    expect(code).toBe(0);
    const report = JSON.parse(output);
    expect(report).toMatchObject({ ok: true, model: "anthropic/claude-sonnet-4-5", providerCheck: "skipped", tokenGenerated: true });
    expect(report.next[0]).toContain("export ANTHROPIC_API_KEY=");
    const text = fs.readFileSync(path.join(dir, "openclaw.yaml"), "utf8");
    expect(text).not.toContain("providers:");
    expect(text).toContain("read from ANTHROPIC_API_KEY");
  });

  it("ollama on a server of this machine: no key asked for, none written, the server checked with GET /api/tags", async () => {
    const ollama = await startFakeModelServer({ models: ["qwen3:8b"] });
    try {
      const dir = makeTempDir();
      const args = ["onboard", "--non-interactive", "--provider", "ollama", "--base-url", ollama.url, "--model", "qwen3:8b", "--json"];
      const { code, output } = await runCli(args, { OPENCLAW_STATE_DIR: dir, OLLAMA_API_KEY: undefined });
      expect(code).toBe(0);
      const report = JSON.parse(output);
      expect(report).toMatchObject({ ok: true, model: "ollama/qwen3:8b", providerCheck: "ok" });
      expect(report.next.join("\n")).not.toContain("export OLLAMA_API_KEY");
      expect(ollama.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/tags"]);
      expect(ollama.requests[0]!.headers.authorization).toBeUndefined();
      const text = fs.readFileSync(path.join(dir, "openclaw.yaml"), "utf8");
      expect(text).toContain(`baseUrl: "${ollama.url}"`);
      expect(text).toContain("api: ollama");
      expect(text).not.toContain("apiKey:");
      const status = await runCli(["models", "status"], { OPENCLAW_STATE_DIR: dir, OLLAMA_API_KEY: undefined });
      expect(status.code).toBe(0);
    } finally {
      await ollama.close();
    }
  });

  it("flags that cannot work are named", async () => {
    const custom = await runCli(["onboard", "--non-interactive", "--provider", "mine", "--model", "m"], { OPENCLAW_STATE_DIR: makeTempDir() });
    expect(custom.output).toContain("--base-url is needed");
    const none = await runCli(["onboard", "--non-interactive"], { OPENCLAW_STATE_DIR: makeTempDir() });
    expect(none.output).toContain("--provider is required");
  });
});

describe("openclaw onboard (interactive, on a pseudo-terminal)", () => {
  it("asks, checks the provider, writes, and lists the next steps", async () => {
    const dir = makeTempDir();
    const term = startPtyCli(["onboard"], { OPENCLAW_STATE_DIR: dir, FAKE_KEY: "sk-right" });
    await term.waitFor("Which model provider?");
    term.send(KEYS.down + KEYS.down + KEYS.down);
    await term.waitFor("Another server");
    term.send(KEYS.enter);
    await term.waitFor("A short id for it");
    term.send(`fake${KEYS.enter}`);
    await term.waitFor("Its base URL");
    term.send(`${model.url}/v1${KEYS.enter}`);
    await term.waitFor("Which wire format");
    term.send(KEYS.down);
    await term.waitFor("openai-completions");
    term.send(KEYS.enter);
    await term.waitFor("Model");
    term.send(`fake-model${KEYS.enter}`);
    await term.waitFor("Environment variable that holds the API key");
    term.send(`${"\x7f".repeat(20)}FAKE_KEY${KEYS.enter}`);
    await term.waitFor("Gateway port");
    term.send(KEYS.enter);
    await term.waitFor("Done.");
    expect(await term.exited).toBe(0);
    expect(term.screen()).toContain("fake answered and accepted the key");
    expect(term.screen()).toContain("openclaw gateway start");
    const text = fs.readFileSync(path.join(dir, "openclaw.yaml"), "utf8");
    expect(text).toContain('primary: "fake/fake-model"');
    expect(text).toContain("api: openai-completions");
    expect(text).toContain('apiKey: "${FAKE_KEY}"');
  });

  it("Ollama: asks for the server's URL and the model, not for a key, and checks the server", async () => {
    const ollama = await startFakeModelServer({ models: ["qwen3:8b"] });
    try {
      const dir = makeTempDir();
      const term = startPtyCli(["onboard"], { OPENCLAW_STATE_DIR: dir, OLLAMA_API_KEY: undefined });
      await term.waitFor("Which model provider?");
      term.send(KEYS.down + KEYS.down);
      await term.waitFor("a server on this machine or the LAN, no key");
      term.send(KEYS.enter);
      await term.waitFor("The Ollama server's URL (no /v1)");
      term.send(`${"\x7f".repeat(40)}${ollama.url}${KEYS.enter}`);
      await term.waitFor("Model");
      term.send(`qwen3:8b${KEYS.enter}`);
      await term.waitFor("Gateway port");
      term.send(KEYS.enter);
      await term.waitFor("Done.");
      expect(await term.exited).toBe(0);
      expect(term.screen()).toContain("ollama answered (no key needed)");
      expect(term.screen()).not.toContain("Environment variable that holds the API key");
      expect(term.screen()).not.toContain("export OLLAMA_API_KEY");
      expect(ollama.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/tags"]);
      const text = fs.readFileSync(path.join(dir, "openclaw.yaml"), "utf8");
      expect(text).toContain('primary: "ollama/qwen3:8b"');
      expect(text).toContain(`baseUrl: "${ollama.url}"`);
      expect(text).not.toContain("apiKey:");
    } finally {
      await ollama.close();
    }
  });

  it("Ctrl-C cancels and writes nothing", async () => {
    const dir = makeTempDir();
    const term = startPtyCli(["onboard"], { OPENCLAW_STATE_DIR: dir });
    await term.waitFor("Which model provider?");
    term.send(KEYS.ctrlC);
    await term.waitFor("Set-up cancelled; nothing was written.");
    expect(await term.exited).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("refuses answer flags without --non-interactive instead of asking over them", async () => {
    const dir = makeTempDir();
    const term = startPtyCli(["onboard", "--provider", "anthropic", "--model", "claude-x", "--json"], { OPENCLAW_STATE_DIR: dir });
    await term.waitFor("--provider, --model, --json: only with --non-interactive (the interactive set-up asks for these); add --non-interactive to use them");
    expect(await term.exited).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
