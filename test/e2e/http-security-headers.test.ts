import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

/**
 * Every HTTP response of the gateway's port carries the baseline security headers, whichever
 * route answers (health, the OpenAI routes, webhooks, the Control UI, a path nothing serves), and
 * `Strict-Transport-Security` only when `gateway.http.securityHeaders.strictTransportSecurity`
 * gives its value.
 */

let gateway: GatewayProcess | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const PATHS = ["/healthz", "/readyz", "/v1/models", "/v1/chat/completions", "/hooks/agent", "/", "/no/such/path"];

async function headersOf(gw: GatewayProcess, path: string, authorized: boolean): Promise<Headers> {
  const res = await fetch(`${gw.httpUrl}${path}`, authorized ? { headers: { authorization: `Bearer ${gw.token}` } } : {});
  await res.arrayBuffer();
  return res.headers;
}

describe("HTTP security headers", { timeout: 30_000 }, () => {
  it("every response carries nosniff, no-referrer and the permissions policy; HSTS only when configured", async () => {
    const hsts = "max-age=63072000; includeSubDomains";
    const stateDir = makeTempDir("openclaw-security-headers-");
    const config = { gateway: { http: { securityHeaders: { strictTransportSecurity: hsts }, endpoints: { chatCompletions: { enabled: true } } } } };
    gateway = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
    for (const path of PATHS) {
      for (const authorized of [false, true]) {
        const headers = await headersOf(gateway, path, authorized);
        const where = `${path} ${authorized ? "with" : "without"} the token`;
        expect(headers.get("x-content-type-options"), where).toBe("nosniff");
        expect(headers.get("referrer-policy"), where).toBe("no-referrer");
        expect(headers.get("permissions-policy"), where).toBe("camera=(), geolocation=()");
        expect(headers.get("strict-transport-security"), where).toBe(hsts);
      }
    }
    await gateway.stop();

    gateway = await startGateway({
      configFile: { name: "openclaw.json", content: JSON.stringify({ gateway: { http: { securityHeaders: { strictTransportSecurity: false } } } }) },
    });
    for (const path of PATHS) {
      const headers = await headersOf(gateway, path, true);
      expect(headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(headers.get("strict-transport-security"), path).toBeNull();
    }
  });
});
