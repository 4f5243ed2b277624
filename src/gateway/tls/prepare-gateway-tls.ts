import { gatewayTlsFiles, type GatewayTlsConfig, type GatewayTlsFiles } from "./gateway-tls-files.js";
import { generateSelfSignedPair } from "./self-signed.js";
import { loadTlsMaterial, tlsPairPresence, type TlsMaterial } from "./tls-material.js";

export interface PreparedGatewayTls {
  files: GatewayTlsFiles;
  material: TlsMaterial;
  /** A self-signed pair was generated for this start. */
  generated: boolean;
}

/**
 * The TLS material a starting gateway serves. With neither file of the pair present and
 * `autoGenerate` not false, a self-signed pair is generated first; one file without the other is
 * never completed or replaced (the start fails, naming both). Throws with the fix in the message.
 */
export async function prepareGatewayTls(tls: GatewayTlsConfig, stateDir: string, env: NodeJS.ProcessEnv): Promise<PreparedGatewayTls> {
  const files = gatewayTlsFiles(tls, stateDir, env);
  const present = tlsPairPresence(files);
  let generated = false;
  if (!present.cert && !present.key) {
    if (tls.autoGenerate === false) {
      throw new Error(
        `gateway.tls is enabled but neither the certificate ${files.certPath} nor the key ${files.keyPath} exists, and gateway.tls.autoGenerate is false: put your pair there (or set certPath and keyPath), or turn autoGenerate on for a self-signed pair`,
      );
    }
    await generateSelfSignedPair(files);
    generated = true;
  } else if (!present.cert || !present.key) {
    const [has, missing] = present.cert ? [files.certPath, files.keyPath] : [files.keyPath, files.certPath];
    throw new Error(
      `gateway.tls: ${has} exists but ${missing} does not; a partial pair is never completed or replaced: restore the missing file, or remove both to have a new self-signed pair generated`,
    );
  }
  return { files, material: loadTlsMaterial(files), generated };
}
