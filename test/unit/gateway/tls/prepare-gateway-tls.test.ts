import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { localGatewayTlsPin } from "../../../../src/gateway/tls/gateway-tls-files.js";
import { prepareGatewayTls } from "../../../../src/gateway/tls/prepare-gateway-tls.js";
import { generateSelfSignedPair, systemOpenssl } from "../../../../src/gateway/tls/self-signed.js";
import { loadTlsMaterial } from "../../../../src/gateway/tls/tls-material.js";
import { makeTempDir } from "../../../helpers/gateway-process.js";

/** A fresh key and self-signed certificate, written where asked. */
function opensslPair(cert: string, key: string, cn = "test"): void {
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", `/CN=${cn}`, "-keyout", key, "-out", cert], {
    stdio: "ignore",
  });
}

describe("the gateway's TLS material at start", () => {
  it("generates a self-signed pair under the state dir when neither file exists: key 0600, valid for loopback", async () => {
    const state = makeTempDir("tls-gen-");
    const prepared = await prepareGatewayTls({ enabled: true }, state, {});
    expect(prepared.generated).toBe(true);
    expect(prepared.files).toEqual({ certPath: path.join(state, "gateway", "tls", "gateway-cert.pem"), keyPath: path.join(state, "gateway", "tls", "gateway-key.pem") });
    expect(fs.statSync(prepared.files.keyPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(prepared.files.keyPath)).mode & 0o777).toBe(0o700);
    const x509 = new X509Certificate(fs.readFileSync(prepared.files.certPath));
    expect(x509.subject).toContain("CN=openclaw-gateway");
    expect(x509.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(x509.checkHost("localhost")).toBe("localhost");
    expect(prepared.material.fingerprint).toBe(localGatewayTlsPin({ enabled: true }, state, {}));
    // No staging directory is left beside the pair.
    expect(fs.readdirSync(path.dirname(prepared.files.keyPath)).sort()).toEqual(["gateway-cert.pem", "gateway-key.pem"]);

    const again = await prepareGatewayTls({ enabled: true }, state, {});
    expect(again.generated).toBe(false);
    expect(again.material.fingerprint).toBe(prepared.material.fingerprint);
  });

  it("serves a configured pair as it is, ~ expanded, with its CA bundle", async () => {
    const home = makeTempDir("tls-home-");
    opensslPair(path.join(home, "c.pem"), path.join(home, "k.pem"));
    const prepared = await prepareGatewayTls({ enabled: true, certPath: "~/c.pem", keyPath: "~/k.pem", caPath: "~/c.pem" }, makeTempDir(), { HOME: home });
    expect(prepared.generated).toBe(false);
    expect(prepared.files).toEqual({ certPath: path.join(home, "c.pem"), keyPath: path.join(home, "k.pem"), caPath: path.join(home, "c.pem") });
    expect(prepared.material.options.ca?.equals(fs.readFileSync(path.join(home, "c.pem")))).toBe(true);
    expect(prepared.material.options.minVersion).toBe("TLSv1.3");
  });

  it("never completes or replaces a partial pair, and names both files", async () => {
    const state = makeTempDir("tls-partial-");
    const dir = path.join(state, "gateway", "tls");
    fs.mkdirSync(dir, { recursive: true });
    opensslPair(path.join(dir, "gateway-cert.pem"), path.join(dir, "gateway-key.pem"));
    fs.rmSync(path.join(dir, "gateway-key.pem"));
    const before = fs.readFileSync(path.join(dir, "gateway-cert.pem"));
    await expect(prepareGatewayTls({ enabled: true }, state, {})).rejects.toThrow(
      `gateway.tls: ${path.join(dir, "gateway-cert.pem")} exists but ${path.join(dir, "gateway-key.pem")} does not; a partial pair is never completed or replaced`,
    );
    expect(fs.readFileSync(path.join(dir, "gateway-cert.pem")).equals(before)).toBe(true);
    expect(fs.existsSync(path.join(dir, "gateway-key.pem"))).toBe(false);
  });

  it("with autoGenerate false, a missing pair is an error that says what to do", async () => {
    const state = makeTempDir("tls-nogen-");
    await expect(prepareGatewayTls({ enabled: true, autoGenerate: false }, state, {})).rejects.toThrow(
      /neither the certificate .* nor the key .* exists, and gateway.tls.autoGenerate is false/,
    );
    expect(fs.existsSync(path.join(state, "gateway"))).toBe(false);
  });

  it("refuses a key that is not the certificate's, a file that is not PEM, and a missing CA bundle, naming the file", () => {
    const dir = makeTempDir("tls-bad-");
    opensslPair(path.join(dir, "a.pem"), path.join(dir, "a.key"));
    opensslPair(path.join(dir, "b.pem"), path.join(dir, "b.key"));
    fs.writeFileSync(path.join(dir, "junk.pem"), "not a certificate");
    expect(() => loadTlsMaterial({ certPath: path.join(dir, "a.pem"), keyPath: path.join(dir, "b.key") })).toThrow(
      `gateway.tls key ${path.join(dir, "b.key")} is not the key of certificate ${path.join(dir, "a.pem")}`,
    );
    expect(() => loadTlsMaterial({ certPath: path.join(dir, "junk.pem"), keyPath: path.join(dir, "a.key") })).toThrow(
      `gateway.tls certificate ${path.join(dir, "junk.pem")} is not a PEM certificate`,
    );
    expect(() => loadTlsMaterial({ certPath: path.join(dir, "a.pem"), keyPath: path.join(dir, "junk.pem") })).toThrow(
      `gateway.tls key ${path.join(dir, "junk.pem")} is not an unencrypted PEM private key`,
    );
    expect(() => loadTlsMaterial({ certPath: path.join(dir, "a.pem"), keyPath: path.join(dir, "a.key"), caPath: path.join(dir, "none.pem") })).toThrow(
      `gateway.tls CA bundle ${path.join(dir, "none.pem")} does not exist: create it, or fix gateway.tls.caPath`,
    );
  });

  it("without openssl in a system directory, generation fails with the fix and leaves nothing behind", async () => {
    expect(systemOpenssl([makeTempDir("no-openssl-")])).toBeUndefined();
    expect(systemOpenssl()).toMatch(/\/openssl$/);
    const state = makeTempDir("tls-noopenssl-");
    const files = { certPath: path.join(state, "tls", "c.pem"), keyPath: path.join(state, "tls", "k.pem") };
    await expect(generateSelfSignedPair(files, [makeTempDir("no-openssl-")])).rejects.toThrow(/cannot generate a certificate: no openssl in .*install openssl/);
    expect(fs.existsSync(files.certPath) || fs.existsSync(files.keyPath)).toBe(false);
  });

  it("a client's pin comes from the certificate file alone, with the fix when it is missing", () => {
    const state = makeTempDir("tls-pin-");
    expect(() => localGatewayTlsPin({ enabled: true }, state, {})).toThrow(
      /cannot read the gateway's TLS certificate .*gateway-cert\.pem to pin it \(it does not exist\): start the gateway once/,
    );
  });
});
