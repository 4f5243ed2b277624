import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { REFUSED_PORT } from "../helpers/ports.js";
import { useFakeServers } from "../helpers/fake-servers.js";

const servers = useFakeServers();

/** A config whose agent uses the OpenAI-compatible provider `local` (model `llama`) at `baseUrl`. */
function localProviderConfig(stateDir: string, baseUrl: string): string {
  return JSON.stringify({
    agents: { defaults: { workspace: path.join(stateDir, "ws"), model: { primary: "local/llama" } } },
    models: { providers: { local: { baseUrl, apiKey: "sk-local-secret", api: "openai-completions", models: [{ id: "llama" }] } } },
  });
}

/** A provider whose baseUrl lacks `/v1`: the fake server, like Ollama, has no `/chat/completions`. */
function configWithoutV1(stateDir: string): string {
  return localProviderConfig(stateDir, servers.model.url);
}

/** `openclaw agent --local -m hi` in a fresh state dir whose provider `local` is at `baseUrl`. */
function localTurnWith(baseUrl: string) {
  const stateDir = makeTempDir();
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), localProviderConfig(stateDir, baseUrl));
  return runCli(["agent", "--local", "-m", "hi"], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
}

describe("every failed turn says what failed and the likely fix", () => {
  it("agent --local with a baseUrl without /v1: the URL it called and the baseUrl to use", async () => {
    const res = await localTurnWith(servers.model.url);
    expect(res.code).toBe(1);
    expect(res.output).toContain(`called POST ${servers.model.url}/chat/completions`);
    expect(res.output).toContain(`did you mean models.providers.local.baseUrl: "${servers.model.url}/v1"?`);
    expect(res.output).not.toContain("sk-local-secret");
  });

  it("the same failure through the gateway says the same", async () => {
    const stateDir = makeTempDir();
    const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configWithoutV1(stateDir) } });
    try {
      const res = await runCli(["agent", "-m", "hi", "--port", String(gw.port), "--token", gw.token!], { OPENCLAW_STATE_DIR: stateDir }, 30_000);
      expect(res.code).toBe(1);
      expect(res.output).toContain(`called POST ${servers.model.url}/chat/completions`);
      expect(res.output).toContain(`did you mean models.providers.local.baseUrl: "${servers.model.url}/v1"?`);
    } finally {
      await gw.stop();
    }
  }, 120_000);

  it("a baseUrl that answers 200 with a web page, not a stream: the URL it called and the setting to check", async () => {
    const page = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><html><body>Welcome to the dashboard</body></html>");
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/v1`;
    try {
      const res = await localTurnWith(baseUrl);
      expect(res.code).toBe(1);
      expect(res.output).toContain(`POST ${baseUrl}/chat/completions`);
      expect(res.output).toContain("check that models.providers.local.baseUrl is the server's OpenAI-compatible API root");
    } finally {
      await new Promise((resolve) => page.close(resolve));
    }
  });

  it("a baseUrl with credentials in it is shown without them", async () => {
    const res = await localTurnWith(servers.model.url.replace("http://", "http://proxyuser:proxy-pass-secret@"));
    expect(res.code).toBe(1);
    expect(res.output).toContain(`called POST http://***@127.0.0.1:${servers.model.port}/chat/completions`);
    expect(res.output).not.toContain("proxy-pass-secret");
    expect(res.output).not.toContain("proxyuser");
  });

  it("agent -m without a running gateway suggests `openclaw gateway start` and --local", async () => {
    const res = await runCli(["agent", "-m", "hi"], { OPENCLAW_STATE_DIR: makeTempDir(), OPENCLAW_GATEWAY_PORT: String(REFUSED_PORT) });
    expect(res.code).toBe(1);
    expect(res.output).toContain("ECONNREFUSED");
    expect(res.output).toContain("openclaw gateway start");
    expect(res.output).toContain("openclaw agent --local");
  });

  it("a gateway started without a model says so, with the two lines to add to its config file", async () => {
    const gw = await startGateway();
    try {
      const output = gw.output();
      expect(output).toContain("No model configured");
      expect(output).toContain(`Add these two lines to ${path.join(gw.stateDir, "openclaw.yaml")}:\nagents:\n  defaults: { model: anthropic/claude-sonnet-4-5 }\n`);
      expect(output).toContain("ANTHROPIC_API_KEY");
    } finally {
      await gw.stop();
    }
  });
});
