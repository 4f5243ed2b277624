import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fsyncDirectory, linkOrCopyExclusive } from "../../infra/atomic-file.js";
import type { GatewayTlsFiles } from "./gateway-tls-files.js";

/** System directories openssl is taken from: never PATH, which another user's shell profile may change. */
const OPENSSL_DIRS = ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin", "/usr/sbin"];
const GENERATE_TIMEOUT_MS = 30_000;

/** The openssl binary in a system directory; undefined when there is none. */
export function systemOpenssl(dirs: readonly string[] = OPENSSL_DIRS): string | undefined {
  for (const dir of dirs) {
    const candidate = path.join(dir, "openssl");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Generates a self-signed certificate for local use (P-256 key, CN openclaw-gateway, valid for
 * localhost, 127.0.0.1 and ::1, ten years) with the system's openssl, at `files`. The pair is
 * written into a private (0700) staging directory beside the key and linked (or, across
 * filesystems, copied exclusively) into place, so no reader ever sees half a file, no other user
 * can read the key at any moment, and an existing file is never overwritten (a file that appeared
 * meanwhile fails the start instead).
 */
export async function generateSelfSignedPair(files: GatewayTlsFiles, opensslDirs: readonly string[] = OPENSSL_DIRS): Promise<void> {
  const openssl = systemOpenssl(opensslDirs);
  if (!openssl) {
    throw new Error(
      `gateway.tls: cannot generate a certificate: no openssl in ${opensslDirs.join(", ")}: install openssl (apt-get install openssl), or create the pair yourself and set gateway.tls.certPath and keyPath`,
    );
  }
  const dirs = [...new Set([path.dirname(files.certPath), path.dirname(files.keyPath)])];
  for (const dir of dirs) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stage = fs.mkdtempSync(path.join(path.dirname(files.keyPath), ".openclaw-tls-"));
  try {
    const stagedKey = path.join(stage, "key.pem");
    const stagedCert = path.join(stage, "cert.pem");
    await run(openssl, [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-sha256",
      "-days",
      "3650",
      "-nodes",
      "-subj",
      "/CN=openclaw-gateway",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
      "-keyout",
      stagedKey,
      "-out",
      stagedCert,
    ]);
    fs.chmodSync(stagedKey, 0o600);
    fs.chmodSync(stagedCert, 0o644);
    publish(stagedKey, files.keyPath);
    publish(stagedCert, files.certPath);
    for (const dir of dirs) fsyncDirectory(dir);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/** `staged` at `target` without overwriting a file that appeared there meanwhile. */
function publish(staged: string, target: string): void {
  try {
    linkOrCopyExclusive(staged, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    throw new Error(`gateway.tls: ${target} appeared while the pair was being generated; it was left as it is: restart the gateway to use it`);
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: GENERATE_TIMEOUT_MS, env: { PATH: "/usr/bin:/bin" } }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      const detail = String(stderr).trim().split("\n").slice(-3).join(" ") || err.message;
      reject(new Error(`gateway.tls: openssl could not generate a certificate (${detail})`));
    });
  });
}
