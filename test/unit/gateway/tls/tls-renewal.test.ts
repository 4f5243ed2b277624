import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TlsRenewal } from "../../../../src/gateway/tls/tls-renewal.js";
import { loadTlsMaterial, type TlsMaterial } from "../../../../src/gateway/tls/tls-material.js";
import { makeTempDir } from "../../../helpers/gateway-process.js";

function opensslPair(cert: string, key: string): void {
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=t", "-keyout", key, "-out", cert], {
    stdio: "ignore",
  });
}

function recordingLogger() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => lines.push({ level, obj, msg });
  return { lines, logger: { info: at("info"), warn: at("warn"), error: at("error") } as never };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Writes a new pair the way renewal tools do: each file written beside and renamed over the old one. */
function renewInPlace(files: { certPath: string; keyPath: string }): void {
  const dir = makeTempDir("tls-next-");
  opensslPair(path.join(dir, "c.pem"), path.join(dir, "k.pem"));
  fs.copyFileSync(path.join(dir, "k.pem"), `${files.keyPath}.tmp`);
  fs.renameSync(`${files.keyPath}.tmp`, files.keyPath);
  fs.copyFileSync(path.join(dir, "c.pem"), `${files.certPath}.tmp`);
  fs.renameSync(`${files.certPath}.tmp`, files.certPath);
}

describe("serving a renewed certificate", () => {
  it("applies a renewed pair once its files settle, and keeps serving the previous one when the files are broken", async () => {
    const dir = makeTempDir("tls-renew-");
    const files = { certPath: path.join(dir, "cert.pem"), keyPath: path.join(dir, "key.pem") };
    opensslPair(files.certPath, files.keyPath);
    const first = loadTlsMaterial(files);
    const applied: TlsMaterial[] = [];
    const { lines, logger } = recordingLogger();
    const renewal = new TlsRenewal(
      files,
      first,
      (material) => applied.push(material),
      logger,
      () => false,
    );
    renewal.start();
    try {
      renewInPlace(files);
      await until(() => applied.length === 1, "the renewed pair");
      expect(applied[0]!.fingerprint).not.toBe(first.fingerprint);
      expect(renewal.current.fingerprint).toBe(applied[0]!.fingerprint);
      expect(lines.find((line) => line.msg.includes("certificate renewed"))?.obj).toMatchObject({ previousFingerprintSha256: first.fingerprint });

      // Only the key replaced: a mismatched pair is logged and not served.
      const stray = makeTempDir("tls-stray-");
      opensslPair(path.join(stray, "c.pem"), path.join(stray, "k.pem"));
      fs.copyFileSync(path.join(stray, "k.pem"), files.keyPath);
      await until(() => lines.some((line) => line.level === "error"), "the refusal");
      expect(lines.find((line) => line.level === "error")!.obj.error).toContain("is not the key of certificate");
      expect(applied).toHaveLength(1);
      expect(renewal.current.fingerprint).toBe(applied[0]!.fingerprint);
    } finally {
      renewal.close();
    }
  });

  it("while reload is off, notes changes and serves them only on resume; an unchanged check applies nothing", async () => {
    const dir = makeTempDir("tls-paused-");
    const files = { certPath: path.join(dir, "cert.pem"), keyPath: path.join(dir, "key.pem") };
    opensslPair(files.certPath, files.keyPath);
    const applied: TlsMaterial[] = [];
    let paused = true;
    const renewal = new TlsRenewal(
      files,
      loadTlsMaterial(files),
      (material) => applied.push(material),
      recordingLogger().logger,
      () => paused,
    );
    renewal.check();
    expect(applied).toHaveLength(0);
    renewal.start();
    try {
      renewInPlace(files);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(applied).toHaveLength(0);
      paused = false;
      renewal.resume();
      expect(applied).toHaveLength(1);
      renewal.resume();
      expect(applied).toHaveLength(1);
    } finally {
      renewal.close();
    }
  });
});
