import fs from "node:fs";
import { cliConnectOptions, GatewayClient } from "../gateway/client.js";
import type { ProvenanceMode } from "../acp/bridge/types.js";
import { packageVersion } from "../infra/version.js";

/** The local gateway's default handshake timeout, as for the other client commands. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

export interface AcpBridgeFlags {
  url?: string;
  port?: string;
  token?: string;
  tokenFile?: string;
  password?: string;
  passwordFile?: string;
  session?: string;
  sessionLabel?: string;
  requireExisting?: boolean;
  resetSession?: boolean;
  prefixCwd?: boolean;
  provenance?: ProvenanceMode;
  verbose?: boolean;
}

/** `openclaw acp`: ACP on stdio, backed by the gateway over WebSocket (docs/acp.md). */
export async function acpBridgeCommand(flags: AcpBridgeFlags): Promise<void> {
  if (flags.token && flags.tokenFile) throw new Error("use either --token or --token-file, not both");
  if (flags.password && flags.passwordFile) throw new Error("use either --password or --password-file, not both");
  if (flags.session && flags.sessionLabel) throw new Error("use either --session or --session-label, not both");
  // With --url the local config's and state dir's credentials are not sent to another host;
  // the environment's are, as the user set them for this process.
  const fromEnv = (name: string) => (flags.url ? process.env[name] || undefined : undefined);
  const token = flags.tokenFile ? readSecret(flags.tokenFile, "--token-file") : (flags.token ?? fromEnv("OPENCLAW_GATEWAY_TOKEN"));
  const password = flags.passwordFile ? readSecret(flags.passwordFile, "--password-file") : (flags.password ?? fromEnv("OPENCLAW_GATEWAY_PASSWORD"));
  // With --url nothing local is needed: the config stack is loaded only to find the local
  // gateway (an IDE waits for this process before its first request is answered).
  const target = flags.url
    ? { url: flags.url, credentials: { token, password }, timeoutMs: HANDSHAKE_TIMEOUT_MS }
    : (await import("./client-context.js")).resolveClientTarget({ port: flags.port, token, password });
  // stdout carries the protocol: everything else goes to stderr.
  const log = flags.verbose ? (line: string) => process.stderr.write(`[openclaw acp] ${line}\n`) : undefined;
  const connect = () => GatewayClient.connect(cliConnectOptions(target, packageVersion(), ["tool-events"]));
  // The handshake runs while the ACP SDK loads: an IDE waits for both before `initialize` is answered.
  const firstConnection = connect();
  firstConnection.catch(() => {});
  try {
    const { serveBridge } = await import("../acp/bridge/serve.js");
    await serveBridge({
      connect,
      firstConnection,
      version: packageVersion(),
      options: {
        defaultSessionKey: flags.session,
        defaultSessionLabel: flags.sessionLabel,
        requireExisting: flags.requireExisting,
        resetSession: flags.resetSession,
        prefixCwd: flags.prefixCwd,
        provenance: flags.provenance,
        log,
      },
    });
  } catch (err) {
    throw new Error(`cannot start openclaw acp: ${(err as Error).message} (is the gateway running? \`openclaw gateway status\`)`);
  }
  // The IDE closed stdin: nothing is left to serve.
  process.exit(0);
}

function readSecret(file: string, flag: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch (err) {
    throw new Error(`${flag}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!text) throw new Error(`${flag}: ${file} is empty`);
  return text;
}
