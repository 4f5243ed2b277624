import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import { expandHome } from "../../infra/home-path.js";
import { certificateFingerprint } from "../../infra/tls/tls-fingerprint.js";

export type GatewayTlsConfig = NonNullable<NonNullable<OpenClawConfig["gateway"]>["tls"]>;

/** Where the gateway's certificate, key and CA bundle are: the configured paths (`~` expanded), else `<state dir>/gateway/tls/`. */
export interface GatewayTlsFiles {
  certPath: string;
  keyPath: string;
  caPath?: string;
}

/** Certificate, key and CA files are small; anything bigger is not one (and is not read whole). */
export const MAX_TLS_FILE_BYTES = 1024 * 1024;

export function gatewayTlsFiles(tls: GatewayTlsConfig, stateDir: string, env: NodeJS.ProcessEnv = process.env): GatewayTlsFiles {
  const home = env.HOME?.trim() || os.homedir();
  const resolve = (value: string | undefined, fallback: string) => (value?.trim() ? path.resolve(expandHome(value.trim(), home)) : fallback);
  const dir = path.join(stateDir, "gateway", "tls");
  return {
    certPath: resolve(tls.certPath, path.join(dir, "gateway-cert.pem")),
    keyPath: resolve(tls.keyPath, path.join(dir, "gateway-key.pem")),
    ...(tls.caPath?.trim() ? { caPath: resolve(tls.caPath, "") } : {}),
  };
}

/** `file`'s bytes, refusing anything that is not a regular file of at most MAX_TLS_FILE_BYTES. */
export function readTlsFile(file: string, what: string): Buffer {
  const stat = fs.statSync(file);
  if (!stat.isFile()) throw new Error(`${what} ${file} is not a file`);
  if (stat.size > MAX_TLS_FILE_BYTES) throw new Error(`${what} ${file} is ${stat.size} bytes, more than a PEM file holds (at most ${MAX_TLS_FILE_BYTES})`);
  return fs.readFileSync(file);
}

/**
 * The fingerprint a client on this machine pins when it connects to the local gateway over TLS:
 * the certificate file's (public bytes only; the key is never read). Throws, naming the file and
 * the fix, when the file cannot be read or is not a certificate.
 */
export function localGatewayTlsPin(tls: GatewayTlsConfig, stateDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const { certPath } = gatewayTlsFiles(tls, stateDir, env);
  let pem: Buffer;
  try {
    pem = readTlsFile(certPath, "the gateway's certificate");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : (err as Error).message;
    throw new Error(
      `cannot read the gateway's TLS certificate ${certPath} to pin it (${reason}): start the gateway once so it generates its certificate (gateway.tls.autoGenerate), or point gateway.tls.certPath at it`,
    );
  }
  try {
    return certificateFingerprint(pem);
  } catch (err) {
    throw new Error(`the gateway's TLS certificate ${certPath} is not a PEM certificate (${(err as Error).message}): fix gateway.tls.certPath`);
  }
}
