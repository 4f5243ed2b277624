import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserEgressProxy } from "../../../src/agents/tools/browser/browser-egress-proxy.js";
import { browserSsrfPolicy, decideNavigation, type HostResolver, STRICT_BROWSER_SSRF_POLICY } from "../../../src/agents/tools/browser/browser-ssrf.js";

/** Names that resolve as the test says, without DNS. */
const resolver =
  (table: Record<string, string[]>): HostResolver =>
  async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses;
  };

const names = resolver({
  "public.test": ["93.184.216.34"],
  "inside.test": ["10.1.2.3"],
  "mixed.test": ["93.184.216.34", "127.0.0.1"],
  "fakeip.test": ["198.18.0.7"],
  "ula.test": ["fd00::7"],
});

describe("the browser's SSRF decision", () => {
  it("public addresses load; private, loopback, link-local and metadata addresses do not, by name or literal", async () => {
    expect(await decideNavigation("https://public.test/page", STRICT_BROWSER_SSRF_POLICY, names)).toEqual({ allowed: true, addresses: ["93.184.216.34"] });
    expect(await decideNavigation("http://inside.test/", STRICT_BROWSER_SSRF_POLICY, names)).toEqual({ allowed: false, reason: "private", address: "10.1.2.3" });
    // One private answer among public ones is enough to refuse (Chromium could pick it).
    expect(await decideNavigation("http://mixed.test/", STRICT_BROWSER_SSRF_POLICY, names)).toMatchObject({ allowed: false, address: "127.0.0.1" });
    for (const url of ["http://127.0.0.1:8080/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://192.168.1.1/"]) {
      expect(await decideNavigation(url, STRICT_BROWSER_SSRF_POLICY, names), url).toMatchObject({ allowed: false, reason: "private" });
    }
  });

  it("only http and https (and about:blank) load; a bad URL and an unknown host are refused", async () => {
    expect(await decideNavigation("about:blank", STRICT_BROWSER_SSRF_POLICY, names)).toEqual({ allowed: true });
    expect(await decideNavigation("file:///etc/passwd", STRICT_BROWSER_SSRF_POLICY, names)).toEqual({ allowed: false, reason: "scheme", scheme: "file" });
    expect(await decideNavigation("javascript:alert(1)", STRICT_BROWSER_SSRF_POLICY, names)).toMatchObject({ allowed: false, reason: "scheme" });
    expect(await decideNavigation("not a url", STRICT_BROWSER_SSRF_POLICY, names)).toEqual({ allowed: false, reason: "invalid" });
    expect(await decideNavigation("https://nowhere.test/", STRICT_BROWSER_SSRF_POLICY, names)).toEqual({ allowed: false, reason: "dns", host: "nowhere.test" });
  });

  it("browser.ssrfPolicy opens exactly what it names", async () => {
    const hosts = browserSsrfPolicy({ allowedHostnames: ["Inside.Test", "127.0.0.1"] });
    expect(await decideNavigation("http://inside.test/", hosts, names)).toEqual({ allowed: true });
    expect(await decideNavigation("http://127.0.0.1:3000/", hosts, names)).toEqual({ allowed: true });
    expect(await decideNavigation("http://localhost:3000/", hosts, resolver({ localhost: ["127.0.0.1"] }))).toMatchObject({ allowed: false, reason: "private" });
    expect(await decideNavigation("http://10.9.9.9/", hosts, names)).toMatchObject({ allowed: false });

    for (const raw of [{ dangerouslyAllowPrivateNetwork: true }, { allowPrivateNetwork: true }]) {
      expect(await decideNavigation("http://inside.test/", browserSsrfPolicy(raw), names)).toEqual({ allowed: true });
      // Still only http(s).
      expect(await decideNavigation("file:///etc/passwd", browserSsrfPolicy(raw), names)).toMatchObject({ allowed: false, reason: "scheme" });
    }

    expect(await decideNavigation("http://fakeip.test/", STRICT_BROWSER_SSRF_POLICY, names)).toMatchObject({ allowed: false });
    expect(await decideNavigation("http://fakeip.test/", browserSsrfPolicy({ allowRfc2544BenchmarkRange: true }), names)).toMatchObject({ allowed: true });
    expect(await decideNavigation("http://ula.test/", STRICT_BROWSER_SSRF_POLICY, names)).toMatchObject({ allowed: false });
    expect(await decideNavigation("http://ula.test/", browserSsrfPolicy({ allowIpv6UniqueLocalRange: true }), names)).toMatchObject({ allowed: true });
    // A range switch opens that range only.
    expect(await decideNavigation("http://inside.test/", browserSsrfPolicy({ allowRfc2544BenchmarkRange: true, allowIpv6UniqueLocalRange: true }), names)).toMatchObject({
      allowed: false,
    });
  });
});

describe("the browser's egress proxy", () => {
  let site: http.Server;
  let sitePort: number;
  const seen: string[] = [];
  beforeAll(async () => {
    site = http.createServer((req, res) => {
      seen.push(`${req.headers.host} ${req.url}`);
      res.end("site says hi");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", () => resolve()));
    sitePort = (site.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => site.close(resolve));
  });

  /** The Proxy-Authorization header Chromium sends once the proxy has challenged it. */
  function authorization(proxy: BrowserEgressProxy): string {
    return `Basic ${Buffer.from(`${proxy.credentials.username}:${proxy.credentials.password}`).toString("base64")}`;
  }

  /** A plain-http request through the proxy, as Chromium sends one (absolute URL). */
  function viaProxy(proxy: BrowserEgressProxy, proxyPort: number, url: string, auth = authorization(proxy)): Promise<{ status: number; body: string; challenge?: string }> {
    return new Promise((resolve, reject) => {
      const headers = { host: new URL(url).host, ...(auth ? { "proxy-authorization": auth } : {}) };
      const req = http.request({ host: "127.0.0.1", port: proxyPort, path: url, headers }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        const challenge = res.headers["proxy-authenticate"];
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, ...(challenge ? { challenge } : {}) }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  /** A CONNECT tunnel's answer line, as Chromium opens one for https and wss. */
  function tunnel(proxy: BrowserEgressProxy, proxyPort: number, authority: string, auth = authorization(proxy)): Promise<string> {
    return new Promise((resolve, reject) => {
      const credentials = auth ? `Proxy-Authorization: ${auth}\r\n` : "";
      const socket = net.connect(proxyPort, "127.0.0.1", () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`));
      socket.once("data", (chunk) => {
        resolve(chunk.toString().split("\r\n")[0]!);
        socket.destroy();
      });
      socket.on("error", reject);
    });
  }

  it("refuses loopback under the strict policy, plain and tunnelled, and records each refusal", async () => {
    const proxy = new BrowserEgressProxy(STRICT_BROWSER_SSRF_POLICY);
    const port = await proxy.start();
    try {
      const before = seen.length;
      expect(await viaProxy(proxy, port, `http://127.0.0.1:${sitePort}/secret`)).toEqual({ status: 403, body: "Blocked by the gateway's browser.ssrfPolicy." });
      expect(await tunnel(proxy, port, `127.0.0.1:${sitePort}`)).toBe("HTTP/1.1 403 Forbidden");
      expect(seen.length).toBe(before);
      expect(proxy.blocked.map((b) => [b.url, b.address])).toEqual([
        [`http://127.0.0.1:${sitePort}/secret`, "127.0.0.1"],
        [`https://127.0.0.1:${sitePort}/`, "127.0.0.1"],
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("answers only a client holding its credentials: another local process gets 407 and reaches nothing", async () => {
    const proxy = new BrowserEgressProxy(browserSsrfPolicy({ allowedHostnames: ["127.0.0.1"] }));
    const port = await proxy.start();
    try {
      const before = seen.length;
      const stranger = new BrowserEgressProxy(STRICT_BROWSER_SSRF_POLICY);
      for (const auth of ["", authorization(stranger), `Basic ${Buffer.from(`${proxy.credentials.username}:wrong`).toString("base64")}`]) {
        expect(await viaProxy(proxy, port, `http://127.0.0.1:${sitePort}/secret`, auth)).toEqual({ status: 407, body: "", challenge: 'Basic realm="openclaw-browser"' });
        expect(await tunnel(proxy, port, `127.0.0.1:${sitePort}`, auth)).toBe("HTTP/1.1 407 Proxy Authentication Required");
      }
      expect(seen.length).toBe(before);
      // Refusing a stranger is not a policy refusal the tool reports.
      expect(proxy.blocked).toEqual([]);
      expect(proxy.credentials.password).not.toBe(stranger.credentials.password);
    } finally {
      await proxy.close();
    }
  });

  it("forwards what the policy allows, to the address it checked", async () => {
    // site.test is allowed by name and "resolves" to the local site: the proxy connects there, Host kept.
    const proxy = new BrowserEgressProxy(browserSsrfPolicy({ allowedHostnames: ["site.test", "127.0.0.1"] }), resolver({ "site.test": ["127.0.0.1"] }));
    const port = await proxy.start();
    try {
      expect(await viaProxy(proxy, port, `http://site.test:${sitePort}/page?q=1`)).toEqual({ status: 200, body: "site says hi" });
      expect(seen.at(-1)).toBe(`site.test:${sitePort} /page?q=1`);
      expect(await tunnel(proxy, port, `127.0.0.1:${sitePort}`)).toBe("HTTP/1.1 200 Connection Established");
      expect(proxy.blocked).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
