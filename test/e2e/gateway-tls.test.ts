import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { GatewayClient } from "../../src/gateway/client.js";
import { certificateFingerprint } from "../../src/infra/tls/tls-fingerprint.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { killIfStill } from "../helpers/kill-if-still.js";

/**
 * gateway.tls: the port serves HTTPS and WSS only, with a self-signed pair generated at the first
 * start; this machine's CLI pins the certificate file's fingerprint; a renewed pair is served to
 * new connections without a restart.
 */

function opensslPair(cert: string, key: string): void {
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=renewed", "-keyout", key, "-out", cert], {
    stdio: "ignore",
  });
}

/** GET over https trusting only `ca` (CA verification, host name included), with the token. */
function verifiedGet(url: string, ca: Buffer, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      })
      .on("error", reject);
  });
}

function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = https.get(`https://127.0.0.1:${port}/health`, { rejectUnauthorized: false, agent: false }, (res) => {
      resolve(certificateFingerprint((res.socket as import("node:tls").TLSSocket).getPeerX509Certificate()!.raw));
      res.resume();
    });
    request.on("error", reject);
  });
}

describe("a gateway serving TLS (gateway.tls)", () => {
  let model: FakeModelServer;
  let gw: GatewayProcess;
  let stateDir: string;
  const tlsDir = () => path.join(stateDir, "gateway", "tls");

  beforeAll(async () => {
    model = await startFakeModelServer();
    stateDir = makeTempDir("gateway-tls-");
    gw = await startGateway({
      stateDir,
      configFile: {
        name: "openclaw.json",
        content: fakeModelConfig(model, stateDir, { gateway: { tls: { enabled: true }, http: { endpoints: { chatCompletions: { enabled: true } } } } }),
      },
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it("generates a self-signed pair at first start, logs its fingerprint, and serves HTTPS valid for 127.0.0.1", async () => {
    const cert = fs.readFileSync(path.join(tlsDir(), "gateway-cert.pem"));
    expect(fs.statSync(path.join(tlsDir(), "gateway-key.pem")).mode & 0o777).toBe(0o600);
    expect(gw.output()).toContain("gateway tls: generated a self-signed certificate");
    const listening = JSON.parse(
      gw
        .output()
        .split("\n")
        .find((line) => line.includes('"msg":"gateway listening"'))!,
    );
    expect(listening).toMatchObject({ tls: { fingerprintSha256: certificateFingerprint(cert) }, openedEarly: false });

    // A client that trusts the certificate verifies it the usual way, host name included.
    expect(await verifiedGet(`https://127.0.0.1:${gw.port}/readyz`, cert)).toMatchObject({ status: 200 });
    model.enqueue({ text: "over tls" });
    const turn = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify({ model: "openclaw", messages: [{ role: "user", content: "hello" }] });
      const request = https.request(
        `https://127.0.0.1:${gw.port}/v1/chat/completions`,
        { method: "POST", ca: cert, headers: { authorization: `Bearer ${gw.token}`, "content-type": "application/json" } },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      request.on("error", reject);
      request.end(body);
    });
    expect(turn.status).toBe(200);
    expect(JSON.parse(turn.body).choices[0].message.content).toBe("over tls");
  });

  it("serves nothing in plain text on the port", async () => {
    const plain = await fetch(`http://127.0.0.1:${gw.port}/health`).then(
      (res) => `answered ${res.status}`,
      (err: Error) => `failed: ${err.message}`,
    );
    expect(plain).toMatch(/^failed/);
    const ws = new WebSocket(`ws://127.0.0.1:${gw.port}`);
    const outcome = await new Promise<string>((resolve) => {
      ws.on("open", () => resolve("open"));
      ws.on("error", () => resolve("error"));
    });
    expect(outcome).toBe("error");
  });

  it("this machine's CLI reaches it over wss://, pinned to the certificate file", async () => {
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token };
    const status = await runCli(["gateway", "status"], env);
    expect(status.code, status.output).toBe(0);
    expect(status.output).toContain(`Listening: wss://127.0.0.1:${gw.port}`);
    const fingerprint = certificateFingerprint(fs.readFileSync(path.join(tlsDir(), "gateway-cert.pem")));
    expect(status.output).toContain(`TLS: sha256 ${fingerprint.toUpperCase().replace(/(..)(?!$)/g, "$1:")}`);
    const health = await runCli(["health"], env);
    expect(health.code, health.output).toBe(0);
    expect(health.output).toContain("Gateway: ok");
    const json = JSON.parse((await runCli(["gateway", "status", "--json"], env)).output);
    expect(json.tls.fingerprintSha256).toBe(fingerprint);
  });

  it("a client pinned to another fingerprint is refused before it sends anything", async () => {
    const failure = await GatewayClient.connect({ url: `wss://127.0.0.1:${gw.port}`, token: gw.token, version: "test", tlsFingerprint: "ab".repeat(32) }).then(
      () => "connected",
      (err: Error) => err.message,
    );
    expect(failure).toContain("is not the pinned one");
    const client = await GatewayClient.connect({
      url: `wss://127.0.0.1:${gw.port}`,
      token: gw.token,
      version: "test",
      tlsFingerprint: certificateFingerprint(fs.readFileSync(path.join(tlsDir(), "gateway-cert.pem"))),
    });
    expect(((await client.call("status", {})) as { port: number }).port).toBe(gw.port);
    client.close();
  });

  it("a client machine reaches it as a remote gateway pinned by gateway.remote.tlsFingerprint, and refuses another pin", async () => {
    const fingerprint = certificateFingerprint(fs.readFileSync(path.join(tlsDir(), "gateway-cert.pem")));
    const clientState = makeTempDir("gateway-tls-client-");
    const remote = (tlsFingerprint: string) =>
      fs.writeFileSync(
        path.join(clientState, "openclaw.json"),
        JSON.stringify({ gateway: { mode: "remote", remote: { url: `wss://127.0.0.1:${gw.port}`, token: gw.token, tlsFingerprint } } }),
      );
    remote(`sha256:${fingerprint.toUpperCase().replace(/(..)(?!$)/g, "$1:")}`);
    const health = await runCli(["health"], { OPENCLAW_STATE_DIR: clientState });
    expect(health.code, health.output).toBe(0);
    expect(health.output).toContain("Gateway: ok");
    remote("cd".repeat(32));
    const refused = await runCli(["health"], { OPENCLAW_STATE_DIR: clientState });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(`the gateway's TLS certificate (sha256 ${fingerprint}) is not the pinned one`);
    // Without a pin, the self-signed certificate must verify against the CAs, and does not.
    fs.writeFileSync(path.join(clientState, "openclaw.json"), JSON.stringify({ gateway: { mode: "remote", remote: { url: `wss://127.0.0.1:${gw.port}`, token: gw.token } } }));
    const unverified = await runCli(["health"], { OPENCLAW_STATE_DIR: clientState });
    expect(unverified.code).not.toBe(0);
    expect(unverified.output).toMatch(/SELF_SIGNED|self.signed/i);
  });

  it("serves a renewed pair to new connections without a restart; open connections stay; a broken pair is refused", async () => {
    const before = certificateFingerprint(fs.readFileSync(path.join(tlsDir(), "gateway-cert.pem")));
    const open = await GatewayClient.connect({ url: `wss://127.0.0.1:${gw.port}`, token: gw.token, version: "test", tlsFingerprint: before });

    const next = makeTempDir("tls-next-");
    opensslPair(path.join(next, "c.pem"), path.join(next, "k.pem"));
    for (const [from, to] of [
      ["k.pem", "gateway-key.pem"],
      ["c.pem", "gateway-cert.pem"],
    ] as const) {
      fs.copyFileSync(path.join(next, from), path.join(tlsDir(), `${to}.tmp`));
      fs.renameSync(path.join(tlsDir(), `${to}.tmp`), path.join(tlsDir(), to));
    }
    const renewed = certificateFingerprint(fs.readFileSync(path.join(next, "c.pem")));
    await gw.waitForOutput(/"msg":"gateway tls: certificate renewed for new connections"/, 10_000);
    expect(await servedFingerprint(gw.port)).toBe(renewed);
    expect(((await open.call("health", {})) as { ok: boolean }).ok).toBe(true);
    open.close();
    const status = await runCli(["gateway", "status", "--json"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token });
    expect(JSON.parse(status.output).tls.fingerprintSha256).toBe(renewed);

    // A key that is not the certificate's: logged, and the renewed pair keeps serving.
    const refusals = () => gw.output().split('"msg":"gateway tls: renewed files not used; the previous certificate keeps serving"').length - 1;
    const refusedBefore = refusals();
    const stray = makeTempDir("tls-stray-");
    opensslPair(path.join(stray, "c.pem"), path.join(stray, "k.pem"));
    fs.copyFileSync(path.join(stray, "k.pem"), path.join(tlsDir(), "gateway-key.pem"));
    const deadline = Date.now() + 10_000;
    while (refusals() === refusedBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(refusals()).toBeGreaterThan(refusedBefore);
    expect(
      gw
        .output()
        .split("\n")
        .filter((line) => line.includes("renewed files not used"))
        .at(-1),
    ).toContain("is not the key of certificate");
    expect(await servedFingerprint(gw.port)).toBe(renewed);
  });
});

describe("security audit --deep against a TLS gateway", () => {
  it("asks over wss:// and https://, pinned: a gateway with auth none is found open", async () => {
    const stateDir = makeTempDir("gateway-tls-audit-");
    const open = await startGateway({
      stateDir,
      token: null,
      args: ["--auth", "none"],
      configFile: { name: "openclaw.json", content: JSON.stringify({ gateway: { tls: { enabled: true } } }) },
    });
    try {
      const { output } = await runCli(["security", "audit", "--json", "--deep"], { OPENCLAW_STATE_DIR: stateDir });
      const ids = JSON.parse(output.slice(output.indexOf("{"))).findings.map((f: { id: string }) => f.id);
      expect(ids).toContain("deep.ws-open");
      expect(ids).not.toContain("deep.not-running");
      // Without the certificate file there is nothing to pin: the live checks are skipped, saying why.
      fs.renameSync(path.join(stateDir, "gateway", "tls", "gateway-cert.pem"), path.join(stateDir, "cert.moved"));
      const skipped = await runCli(["security", "audit", "--json", "--deep"], { OPENCLAW_STATE_DIR: stateDir });
      const report = JSON.parse(skipped.output.slice(skipped.output.indexOf("{")));
      expect(report.findings.find((f: { id: string }) => f.id === "deep.tls-unverifiable").title).toContain("cannot read the gateway's TLS certificate");
    } finally {
      await open.stop();
    }
  });
});

describe("a client and plaintext ws://", () => {
  it("refuses a public address before connecting, for --url and for gateway.remote.url, and says how to fix it", async () => {
    const clientState = makeTempDir("plaintext-client-");
    const flag = await runCli(["health", "--url", "ws://203.0.113.7:18789", "--token", "secret"], { OPENCLAW_STATE_DIR: clientState });
    expect(flag.code).not.toBe(0);
    expect(flag.output).toContain("refusing to connect to 203.0.113.7:18789 over plaintext ws://");
    expect(flag.output).toContain("Use wss://");
    fs.writeFileSync(path.join(clientState, "openclaw.json"), JSON.stringify({ gateway: { mode: "remote", remote: { url: "ws://203.0.113.7:18789", token: "secret" } } }));
    const remote = await runCli(["health"], { OPENCLAW_STATE_DIR: clientState, OPENCLAW_ALLOW_INSECURE_PRIVATE_WS: "1" });
    expect(remote.code).not.toBe(0);
    expect(remote.output).toContain("over plaintext ws://");
  });
});

describe("starting with gateway.tls", () => {
  it("refuses a partial pair, naming both files, and leaves them as they are", async () => {
    const stateDir = makeTempDir("gateway-tls-partial-");
    const dir = path.join(stateDir, "gateway", "tls");
    fs.mkdirSync(dir, { recursive: true });
    opensslPair(path.join(dir, "gateway-cert.pem"), path.join(dir, "k.pem"));
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ gateway: { tls: { enabled: true } } }));
    const res = await runCli(["gateway", "run", "--port", "0"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "t" });
    expect(res.code).not.toBe(0);
    expect(res.output).toContain(`gateway.tls: ${path.join(dir, "gateway-cert.pem")} exists but ${path.join(dir, "gateway-key.pem")} does not`);
    expect(fs.existsSync(path.join(dir, "gateway-key.pem"))).toBe(false);
  });

  it("gateway start waits for the TLS port's readiness over https and says wss://", async () => {
    const stateDir = makeTempDir("gateway-tls-daemon-");
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ gateway: { tls: { enabled: true } } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_PORT: "0", OPENCLAW_GATEWAY_TOKEN: "daemon-token" };
    const started = await runCli(["gateway", "start"], env);
    const pid = Number(/pid (\d+)/.exec(started.output)?.[1]);
    try {
      expect(started.code, started.output).toBe(0);
      expect(started.output).toMatch(/Gateway started \(pid \d+\) on wss:\/\/127\.0\.0\.1:\d+/);
      expect((await runCli(["gateway", "start"], env)).output).toMatch(/already running \(pid \d+\) on wss:\/\//);
    } finally {
      const stopped = await runCli(["gateway", "stop"], env);
      expect(stopped.code, stopped.output).toBe(0);
      if (pid) killIfStill(pid, `OPENCLAW_STATE_DIR=${stateDir}`);
    }
  });
});
