import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { TestSocket, connectParams } from "../helpers/ws-client.js";

/** The Control UI's HTTP side and its WebSocket origin rule, against the built gateway. */

function uiConnect(token: string | undefined) {
  return connectParams(token, { client: { id: "openclaw-control-ui", version: "test", platform: "web", mode: "ui" } });
}

async function connectWithOrigin(url: string, origin: string, token: string | undefined) {
  const sock = new TestSocket(new WebSocket(url, { origin }));
  return { sock, res: await sock.connect(uiConnect(token)) };
}

describe("Control UI served at the root", () => {
  let gw: GatewayProcess;
  beforeAll(async () => {
    gw = await startGateway({ configFile: { name: "openclaw.json", content: JSON.stringify({ gateway: { controlUi: { allowedOrigins: ["https://ops.example.com"] } } }) } });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it("serves the page with a strict CSP and no inline script, and its hashed assets as immutable", async () => {
    const page = await fetch(`${gw.httpUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const html = await page.text();
    // Every script is a file: no inline code the CSP would have to allow.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${gw.httpUrl}/${asset}`, { headers: { "accept-encoding": "br" } });
    expect(js.status).toBe(200);
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(js.headers.get("content-encoding")).toBe("br");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    // A revalidation with the ETag costs no body.
    const again = await fetch(`${gw.httpUrl}/`, { headers: { "if-none-match": page.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("sends the build's gzip twin to a gzip-only client, byte for byte", async () => {
    const html = await (await fetch(`${gw.httpUrl}/`)).text();
    const css = /href="\.\/(assets\/[^"]+\.css)"/.exec(html)![1]!;
    const res = await fetch(`${gw.httpUrl}/${css}`, { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const onDisk = fs.readFileSync(path.join(process.cwd(), "dist/control-ui", css), "utf8");
    expect(await res.text()).toBe(onDisk);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(process.cwd(), "dist/control-ui", `${css}.gz`))).toString()).toBe(onDisk);
  });

  it("keeps the other routes' own answers: health, /v1 (off by default) and unknown paths", async () => {
    expect((await fetch(`${gw.httpUrl}/healthz`)).status).toBe(200);
    const v1 = await fetch(`${gw.httpUrl}/v1/models`);
    expect(v1.status).toBe(404);
    const unknown = await fetch(`${gw.httpUrl}/assets/not-built.js`);
    expect(unknown.status).toBe(404);
    // The compressed twins are not addressable under their own names.
    const html = await (await fetch(`${gw.httpUrl}/`)).text();
    const asset = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)![1];
    expect((await fetch(`${gw.httpUrl}/${asset}.br`)).status).toBe(404);
  });

  it("logs the UI link at start, without the token (the link with the token goes to a terminal only)", () => {
    expect(gw.output()).toContain(`"controlUi":"http://127.0.0.1:${gw.port}/"`);
    expect(gw.output()).not.toContain(gw.token!);
  });

  it("accepts the Control UI from a loopback origin and from an allowed origin", async () => {
    for (const origin of [`http://127.0.0.1:${gw.port}`, `http://localhost:${gw.port}`, "https://ops.example.com"]) {
      const { sock, res } = await connectWithOrigin(gw.url, origin, gw.token);
      expect(res.ok, origin).toBe(true);
      sock.close();
    }
  });

  it("refuses a browser page from any other origin with CONTROL_UI_ORIGIN_NOT_ALLOWED, even with the right token", async () => {
    const { sock, res } = await connectWithOrigin(gw.url, "https://evil.example", gw.token);
    expect(res.ok).toBe(false);
    expect(res.error.details.code).toBe("CONTROL_UI_ORIGIN_NOT_ALLOWED");
    expect(res.error.message).toContain("gateway.controlUi.allowedOrigins");
    expect((await sock.closed).code).toBe(1008);
  });

  it("leaves clients that send no Origin (CLI, SDKs) alone", async () => {
    const sock = await TestSocket.open(gw.url);
    const res = await sock.connect(uiConnect(gw.token));
    expect(res.ok).toBe(true);
    sock.close();
  });
});

describe("Control UI under a base path, and switched off", () => {
  it("mounts under gateway.controlUi.basePath, redirects the bare prefix, and opens the WebSocket there", async () => {
    const gw = await startGateway({ configFile: { name: "openclaw.json", content: JSON.stringify({ gateway: { controlUi: { basePath: "/openclaw" } } }) } });
    try {
      expect(gw.output()).toContain(`"controlUi":"http://127.0.0.1:${gw.port}/openclaw/"`);
      const page = await fetch(`${gw.httpUrl}/openclaw/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<openclaw-app>");
      const bare = await fetch(`${gw.httpUrl}/openclaw?x=1`, { redirect: "manual" });
      expect(bare.status).toBe(301);
      expect(bare.headers.get("location")).toBe("/openclaw/?x=1");
      expect((await fetch(`${gw.httpUrl}/`)).status).toBe(404);
      const sock = await TestSocket.open(`${gw.url}/openclaw/`);
      expect((await sock.connect(uiConnect(gw.token))).ok).toBe(true);
      sock.close();
    } finally {
      await gw.stop();
    }
  });

  it("serves nothing and prints no link when gateway.controlUi.enabled is false", async () => {
    const gw = await startGateway({ configFile: { name: "openclaw.json", content: JSON.stringify({ gateway: { controlUi: { enabled: false } } }) } });
    try {
      expect((await fetch(`${gw.httpUrl}/`)).status).toBe(404);
      expect(gw.output()).not.toContain('"controlUi"');
    } finally {
      await gw.stop();
    }
  });

  it("refuses to start with a base path that is not a plain URL path, naming the key", async () => {
    const gw = startGateway({ configFile: { name: "openclaw.json", content: JSON.stringify({ gateway: { controlUi: { basePath: "/a/../b" } } }) } });
    await expect(gw).rejects.toThrow(/gateway\.controlUi\.basePath/);
  });
});

/**
 * A copy of the package (bin, built UI, package.json, node_modules linked): the gateway lists the
 * UI's files at start and reads each when first asked for, so one an upgrade removed meanwhile
 * is answered with what happened and the fix.
 */
describe("Control UI files replaced under a running gateway", () => {
  it("are read when first asked for; one gone since the start is a 503 saying to restart the gateway", async () => {
    const root = makeTempDir("openclaw-ui-copy-");
    const dist = path.join(process.cwd(), "dist");
    fs.cpSync(path.join(dist, "bin"), path.join(root, "dist", "bin"), { recursive: true });
    fs.cpSync(path.join(dist, "control-ui"), path.join(root, "dist", "control-ui"), { recursive: true });
    fs.copyFileSync(path.join(process.cwd(), "package.json"), path.join(root, "package.json"));
    fs.symlinkSync(path.join(process.cwd(), "node_modules"), path.join(root, "node_modules"));
    const gw = await startGateway({ cli: path.join(root, "dist", "bin", "openclaw.cjs") });
    try {
      const html = await (await fetch(`${gw.httpUrl}/`)).text();
      const js = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)![1]!;
      const css = /href="\.\/(assets\/[^"]+\.css)"/.exec(html)![1]!;
      expect((await fetch(`${gw.httpUrl}/${js}`)).status).toBe(200);
      for (const suffix of ["", ".gz", ".br"]) fs.rmSync(path.join(root, "dist", "control-ui", css + suffix), { force: true });
      fs.rmSync(path.join(root, "dist", "control-ui", js));
      // Read before it went: still served from memory.
      expect((await fetch(`${gw.httpUrl}/${js}`)).status).toBe(200);
      const gone = await fetch(`${gw.httpUrl}/${css}`);
      expect(gone.status).toBe(503);
      expect(await gone.text()).toMatch(/Control UI file assets\/.*\.css cannot be read \(ENOENT\): its files changed since the gateway started; restart the gateway/);
    } finally {
      await gw.stop();
    }
  });
});
