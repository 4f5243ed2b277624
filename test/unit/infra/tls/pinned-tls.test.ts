import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endWhenPinned, TlsPinError } from "../../../../src/infra/tls/pinned-tls.js";
import { probeStatus } from "../../../../src/infra/tls/probe-status.js";
import { certificateFingerprint } from "../../../../src/infra/tls/tls-fingerprint.js";
import { makeTempDir } from "../../../helpers/gateway-process.js";

let server: https.Server;
let url: string;
let pin: string;
const seen: string[] = [];

beforeAll(async () => {
  const dir = makeTempDir("tls-pin-");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=t", "-keyout", path.join(dir, "k.pem"), "-out", path.join(dir, "c.pem")],
    {
      stdio: "ignore",
    },
  );
  const cert = fs.readFileSync(path.join(dir, "c.pem"));
  pin = certificateFingerprint(cert);
  server = https.createServer({ cert, key: fs.readFileSync(path.join(dir, "k.pem")) }, (req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""} ${body}`);
      res.statusCode = req.url === "/missing" ? 404 : 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A POST with a secret header and body, ended only once pinned. */
function pinnedPost(expected: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(`${url}/secret`, { method: "POST", rejectUnauthorized: false, headers: { authorization: "Bearer s3cret" } });
    request.on("response", (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    request.on("error", reject);
    endWhenPinned(request, expected, "the body");
  });
}

describe("certificate pinning", () => {
  it("sends the request once the certificate is the pinned one (a self-signed one passes)", async () => {
    seen.length = 0;
    expect(await pinnedPost(pin.toUpperCase())).toBe(200);
    expect(seen).toEqual(["POST /secret Bearer s3cret the body"]);
  });

  it("sends nothing to a server whose certificate is another: not the headers, not the body", async () => {
    seen.length = 0;
    const other = "00".repeat(32);
    const failure = await pinnedPost(other).catch((err: Error) => err);
    expect(failure).toBeInstanceOf(TlsPinError);
    expect((failure as Error).message).toContain(`sha256 ${pin}`);
    expect((failure as Error).message).toContain("gateway.remote.tlsFingerprint");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([]);
  });

  it("probes a status over https with a pin, and reports an unpinned certificate as unreachable", async () => {
    seen.length = 0;
    expect(await probeStatus(`${url}/missing`, { tlsFingerprint: pin })).toBe(404);
    expect(await probeStatus(`${url}/ready`, { tlsFingerprint: "11".repeat(32) })).toBeUndefined();
    // Without a pin the certificate must verify against the CAs: a self-signed one does not.
    expect(await probeStatus(`${url}/ready`)).toBeUndefined();
    expect(seen).toEqual(["GET /missing  "]);
  });
});
