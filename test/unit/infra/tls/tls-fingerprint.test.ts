import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { certificateFingerprint, displayTlsFingerprint, normalizeTlsFingerprint } from "../../../../src/infra/tls/tls-fingerprint.js";
import { makeTempDir } from "../../../helpers/gateway-process.js";

const HEX = "970c9377695f89e4aedb32fa1d8ffee49c720b90f2c2e45d952bf5d165a167b3";

describe("TLS fingerprints", () => {
  it("takes the forms people copy: bare hex, colon pairs, either case, with or without sha256:", () => {
    expect(normalizeTlsFingerprint(HEX.toUpperCase())).toBe(HEX);
    expect(normalizeTlsFingerprint(` sha256:${displayTlsFingerprint(HEX)} `)).toBe(HEX);
    expect(normalizeTlsFingerprint(`SHA256:${HEX}`)).toBe(HEX);
  });

  it("refuses what is not a whole SHA-256 fingerprint", () => {
    for (const bad of [undefined, "", HEX.slice(2), `${HEX}00`, `sha1:${HEX}`, displayTlsFingerprint(HEX).replace(/:/, ""), HEX.replace(/a/g, "g")]) {
      expect(normalizeTlsFingerprint(bad), String(bad)).toBeUndefined();
    }
  });

  it("prints the way openssl does, and reads a certificate's as openssl computes it", () => {
    expect(displayTlsFingerprint("ab01")).toBe("AB:01");
    const dir = makeTempDir("tls-fp-");
    const cert = path.join(dir, "c.pem");
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=t", "-keyout", path.join(dir, "k.pem"), "-out", cert],
      { stdio: "ignore" },
    );
    const fromOpenssl = execFileSync("openssl", ["x509", "-in", cert, "-noout", "-fingerprint", "-sha256"], { encoding: "utf8" }).trim().split("=")[1]!;
    expect(displayTlsFingerprint(certificateFingerprint(fs.readFileSync(cert)))).toBe(fromOpenssl);
    expect(() => certificateFingerprint("not a certificate")).toThrow();
  });
});
