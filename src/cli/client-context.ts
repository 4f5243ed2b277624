import { loadConfigForClient, resolveStateDir, type LoadedConfig } from "../config/index.js";
import { resolveClientCredentials } from "../gateway/auth/resolve-auth.js";
import { cliConnectOptions, GatewayClient, GatewayClientError } from "../gateway/client.js";
import { readLiveLock } from "../gateway/state-lock.js";
import { localGatewayTlsPin } from "../gateway/tls/gateway-tls-files.js";
import { normalizeTlsFingerprint } from "../infra/tls/tls-fingerprint.js";
import { packageVersion } from "../infra/version.js";
import { CliError, parsePortFlag, parseTimeoutSeconds } from "./output.js";
import { openclawCommand } from "./root-options.js";

export interface ClientFlags {
  url?: string;
  port?: string;
  token?: string;
  password?: string;
  timeout?: string;
  json?: boolean;
  /** Capabilities to announce (`tool-events` to receive tool events). */
  caps?: string[];
  /** `--tls-fingerprint`: the SHA-256 fingerprint the gateway's certificate must have, over any pin the config gives. */
  tlsFingerprint?: string;
}

/**
 * Where the gateway is and how to authenticate: flags → env → `gateway.remote.url` when
 * `gateway.mode` is `remote` → the running gateway's lock (its real port) → config → defaults.
 * With --url, no config or env credentials are used. A local gateway with `gateway.tls` is reached
 * at `wss://`, pinned to its certificate file's fingerprint; a remote one is pinned to
 * `gateway.remote.tlsFingerprint` when set (else its certificate must verify against the CAs);
 * `--tls-fingerprint` pins any `wss://` target to the fingerprint given.
 */
/** Where a client command connects: the address, its kind (`url` when --url named it), credentials, handshake limit and TLS pin. */
export type ClientTarget = ReturnType<typeof resolveClientTarget>;

export function resolveClientTarget(flags: ClientFlags, env: NodeJS.ProcessEnv = process.env) {
  const target = resolveConfiguredTarget(flags, env);
  const pin = explicitTlsPin(flags.tlsFingerprint);
  return pin ? { ...target, tlsFingerprint: pin } : target;
}

function explicitTlsPin(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const pin = normalizeTlsFingerprint(value);
  if (!pin) {
    throw new CliError(
      `--tls-fingerprint: expected the certificate's SHA-256 fingerprint, 64 hex digits or 32 colon-separated pairs (optionally prefixed sha256:), got "${value.slice(0, 120)}"`,
    );
  }
  return pin;
}

function resolveConfiguredTarget(flags: ClientFlags, env: NodeJS.ProcessEnv) {
  const stateDir = resolveStateDir(env);
  const loaded = clientConfig(stateDir, env);
  const timeoutMs = parseTimeoutSeconds(flags.timeout, 10);
  if (flags.url) {
    checkUrlFlag(flags.url);
    return { stateDir, loaded, url: flags.url, kind: "url" as const, timeoutMs, credentials: { token: flags.token, password: flags.password } };
  }
  const remoteUrl = loaded.config.gateway.mode === "remote" ? loaded.config.gateway.remote?.url?.trim() : undefined;
  if (remoteUrl && !flags.port && !env.OPENCLAW_GATEWAY_PORT) {
    // This machine is a client: the gateway it talks to is the configured remote one.
    const credentials = resolveClientCredentials(loaded.config, stateDir, env, flags);
    const pin = normalizeTlsFingerprint(loaded.config.gateway.remote?.tlsFingerprint);
    return { stateDir, loaded, url: remoteUrl, kind: "remote" as const, timeoutMs, credentials, ...(pin ? { tlsFingerprint: pin } : {}) };
  }
  const lock = readLiveLock(stateDir);
  const envPort = env.OPENCLAW_GATEWAY_PORT ? parsePortFlag(env.OPENCLAW_GATEWAY_PORT) : undefined;
  const port = parsePortFlag(flags.port) ?? envPort ?? lock?.port ?? loaded.config.gateway.port;
  const host = lock && lock.host !== "0.0.0.0" ? lock.host : "127.0.0.1";
  const credentials = resolveClientCredentials(loaded.config, stateDir, env, flags);
  const tls = loaded.config.gateway.tls;
  if (tls?.enabled !== true) return { stateDir, loaded, url: `ws://${host}:${port}`, kind: "local" as const, timeoutMs, credentials };
  // The local gateway serves TLS only; its certificate file is what this machine pins.
  let tlsFingerprint: string;
  try {
    tlsFingerprint = localGatewayTlsPin(tls, stateDir, env);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  return { stateDir, loaded, url: `wss://${host}:${port}`, kind: "local" as const, timeoutMs, credentials, tlsFingerprint };
}

function checkUrlFlag(value: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (!protocol || !["ws:", "wss:", "http:", "https:"].includes(protocol)) {
    throw new CliError(`--url: expected the gateway's WebSocket address, ws://<host>:<port> or wss://<host>[:<port>], got "${value}"`);
  }
}

/**
 * A connected client. Nobody listening at the address is the usual first failure, so it comes
 * with the command that starts a gateway (`alternative` adds one, e.g. `agent --local`).
 */
export async function connectClient(flags: ClientFlags, alternative?: string): Promise<GatewayClient> {
  const target = resolveClientTarget(flags);
  try {
    return await GatewayClient.connect(cliConnectOptions(target, packageVersion(), flags.caps));
  } catch (err) {
    if (err instanceof GatewayClientError && err.networkCode === "ECONNREFUSED") {
      const elsewhere = flags.url || flags.port ? "" : " (or pass --url / --port for a gateway elsewhere)";
      throw new CliError(
        `${err.message}: no gateway is running there. Start one with \`${openclawCommand("gateway start")}\`${elsewhere}${alternative ? `, ${alternative}` : ""}.`,
      );
    }
    throw err;
  }
}

/**
 * The config a client command uses. An invalid file does not stop a command that only needs the
 * port and the token: it runs with a warning naming the broken keys (once per process).
 */
function clientConfig(stateDir: string, env: NodeJS.ProcessEnv): LoadedConfig {
  const { loaded, invalid, fallback } = loadConfigForClient({ stateDir, env });
  if (invalid && !warnedAbout.has(invalid.filePath ?? "")) {
    warnedAbout.add(invalid.filePath ?? "");
    const keys = invalid.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ");
    const using = fallback === "gateway-section" ? "its gateway section only" : "the built-in gateway defaults, env and the stored token";
    process.stderr.write(
      `warning: config file ${invalid.filePath ?? ""} is invalid (${keys}); this command uses ${using}. Fix it, then check with \`openclaw config validate\`.\n`,
    );
  }
  return loaded;
}

const warnedAbout = new Set<string>();
