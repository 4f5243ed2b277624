import fs from "node:fs";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { ensurePrivateDir, gatewayStatePaths } from "../../infra/paths.js";

/** Read the token a previous start generated, if any. */
export function readPersistedToken(stateDir: string): string | undefined {
  try {
    const token = fs.readFileSync(gatewayStatePaths(stateDir).tokenFile, "utf8").trim();
    return token.length > 0 ? token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Return the persisted gateway token, generating and storing one (0600) on first use.
 * `generated` tells the caller to show it once; it is never logged.
 */
export function ensurePersistedToken(stateDir: string): { token: string; generated: boolean; file: string } {
  const paths = gatewayStatePaths(stateDir);
  const existing = readPersistedToken(stateDir);
  if (existing) return { token: existing, generated: false, file: paths.tokenFile };
  ensurePrivateDir(paths.credentialsDir);
  // node:crypto is loaded only here: most starts read an existing token, before the port opens.
  const token = process.getBuiltinModule("node:crypto").randomBytes(24).toString("base64url");
  writeFileAtomicSync(paths.tokenFile, `${token}\n`, 0o600);
  return { token, generated: true, file: paths.tokenFile };
}
