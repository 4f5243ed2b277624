import fs from "node:fs";
import type { SecureContextOptions } from "node:tls";
import {
  ConfigError,
  defaultConfigPathForWrite,
  diffConfigPaths,
  loadConfig,
  answeredExecReads,
  configSignature,
  RuntimeOverrides,
  loadConfigFromBytes,
  resolveStateDir,
  restartRequiredPaths,
  watchConfig,
  type ConfigChange,
  type ExecSecretReads,
  type LoadedConfig,
  type OpenClawConfig,
} from "../config/index.js";
import type { LevelWithSilent } from "pino";
import { createLogger, isLogLevel, type Logger } from "../infra/logger.js";
import { ensurePrivateDir, gatewayStatePaths } from "../infra/paths.js";
import { packageVersion } from "../infra/version.js";
import { positiveIntSetting } from "../infra/positive-int.js";
import { resolveServerAuth, type AuthMode, type ResolvedAuth } from "./auth/resolve-auth.js";
import { loopbackAliasFor, type BindMode } from "./bind-host.js";
import type { EarlyListen } from "./early-listen.js";
import { resolveGatewayAddress, type GatewayAddress } from "./gateway-address.js";
import { createListener, type EarlyListener } from "./listen.js";
import type { PreparedGatewayTls } from "./tls/prepare-gateway-tls.js";
import type { TlsRenewal } from "./tls/tls-renewal.js";
import { noModelNotice } from "./no-model-notice.js";
import { modelConfigWarnings } from "./model-config-warnings.js";
import { GatewayStartError } from "./start-error.js";
import { configStartRefusals, REMOTE_MODE_REFUSAL, unauthenticatedBindRefusal } from "./start-refusals.js";
import { StateLock } from "./state-lock.js";
import { shutdownDeadlineMs, shutdownTimeoutFromEnv } from "./shutdown-deadline.js";
import { unfinishedStopMessage } from "../infra/shutdown-stages.js";
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_TICK_INTERVAL_MS } from "./protocol/constants.js";
import type { ConfigReloadOutcome, ConfigReloadStatus, RestartPlan, RuntimeOverrideOutcome, RuntimeOverridesControl } from "./runtime.js";
import type { CronClock } from "../cron/clock.js";
import { controlUiUrl, resolveControlUiSettings, type ControlUiSettings } from "./http/control-ui/control-ui-settings.js";
import { applyConfigEnvVars } from "../config/env-sources.js";
import { importLoginShellEnv } from "../config/login-shell-env.js";
import { stability } from "../infra/stability/stability-recorder.js";
import { startMemorySampler } from "../infra/stability/memory-sampler.js";

export interface RunGatewayOptions {
  env: NodeJS.ProcessEnv;
  port?: number;
  bind?: BindMode;
  token?: string;
  password?: string;
  authMode?: AuthMode;
  logLevel?: string;
  allowUnconfigured?: boolean;
  /** Mirror logs to stdout (foreground runs). */
  console: boolean;
  /** Where the one-time generated-token notice and the Control UI link go. */
  notice: (text: string) => void;
  /**
   * The scheduler's clock when the gateway runs inside another program (tests drive it by hand).
   * Not reachable from the command line or the environment: `openclaw gateway run` always uses the system clock.
   */
  cronClock?: CronClock;
  /** Print the Control UI link with the token (it signs the browser in): only when the notice reaches a terminal. */
  controlUiLinkWithToken?: boolean;
  /**
   * Stop this gateway and start a new one in its place (`openclaw gateway run` does). Without it
   * the gateway cannot restart itself, and `config.apply` says a restart is needed instead.
   */
  restart?: (reason: string) => void;
  /** The port the CLI entry opened before this code loaded (see src/gateway/early-listen.ts). */
  early?: EarlyListen;
}

export interface RunningGateway {
  host: string;
  port: number;
  stateDir: string;
  logger: Logger;
  /** Read the config file now and apply it as a hot reload would (SIGHUP). */
  reloadConfig(): void;
  /**
   * An operator's restart signal (SIGUSR2): the in-process restart `/restart` does, unless
   * `commands.restart: false`, which turns both off (the refusal is logged as a warning).
   */
  restartOnSignal(signal: string): void;
  /** `restartExpectedMs` tells clients (in the `shutdown` event) that a new gateway follows. */
  stop(reason: string, restartExpectedMs?: number): Promise<void>;
  /** How long the whole stop may take (src/gateway/shutdown-deadline.ts), from the config as it is now. */
  stopDeadlineMs(): number;
  /**
   * The stop will not be waited for (its deadline passed, a second signal): logs one error, `why`
   * and the stages not finished yet, writes the session index updates still waiting for their
   * coalesced write (GatewayServer.saveBeforeAbandonedStop), and releases the state-dir lock. The
   * caller exits next; what was durable stays so, as every write the gateway acknowledged was
   * synced first.
   */
  abandonStop(why: string): void;
}

/**
 * Bring the gateway up: config, credentials, the state-dir lock, then the port — opened before
 * the WebSocket/HTTP app loads, so clients can connect (and /readyz answers) as early as possible.
 * When the CLI entry already opened the port (`opts.early`), it is kept if the loaded config puts
 * the gateway at the same address, else closed and opened again where the config says; any
 * failure before the app attaches closes it.
 */
export async function runGateway(opts: RunGatewayOptions): Promise<RunningGateway> {
  const startedAt = Date.now();
  const env = opts.env;
  let checked: CheckedStart;
  try {
    checked = checkStart(opts, startedAt);
  } catch (err) {
    await opts.early?.listener.close();
    throw err;
  }
  const { stateDir, config, bind, host, port, auth, controlUi, version, lock } = checked;
  let current = checked.loaded;
  let tls: PreparedGatewayTls | undefined;
  if (config.gateway?.tls?.enabled === true) {
    try {
      // Loaded only for a TLS gateway: node:tls and the certificate code cost memory the others never use.
      const { prepareGatewayTls } = await import("./tls/prepare-gateway-tls.js");
      tls = await prepareGatewayTls(config.gateway.tls, stateDir, env);
    } catch (err) {
      await opts.early?.listener.close();
      lock.release();
      throw new GatewayStartError((err as Error).message);
    }
  }
  const { listener, boundPort, portOpenMs, openedEarly } = await openPort(opts, host, port, () => lock.release(), tls?.material.options);
  lock.update({ port: boundPort, stopDeadlineMs: shutdownDeadlineMs(config, env), ...(tls ? { tls: true } : {}) });

  const paths = gatewayStatePaths(stateDir);
  // `diagnostics.enabled: false` turns the stability stream off (it keeps what it recorded before).
  stability.enabled = config.diagnostics?.enabled !== false;
  const levels = logLevels(opts.logLevel, env, config);
  const {
    logger,
    setLevels,
    fileHealth: logFileHealth,
    close: closeLogFile,
  } = await createLogger({
    level: levels.file,
    consoleLevel: levels.console,
    ...(config.logging?.consoleStyle ? { consoleStyle: config.logging.consoleStyle } : {}),
    file: config.logging?.file ?? paths.logFile,
    console: opts.console,
    maxFileBytes: config.logging?.maxFileBytes,
    redactPatterns: config.logging?.redactPatterns,
  });
  for (const warning of current.warnings) logger.warn({ configPath: current.path }, warning);
  for (const warning of checked.envNotes.warnings) logger.warn(warning);
  if (checked.envNotes.applied.length > 0) logger.info({ variables: checked.envNotes.applied }, "environment variables set from env.vars and the login shell");
  if (bind.note) logger.warn(bind.note);
  if (tls?.generated) logger.info({ certPath: tls.files.certPath, keyPath: tls.files.keyPath }, "gateway tls: generated a self-signed certificate (for local use)");
  if (tls && Date.parse(tls.material.validTo) < Date.now()) {
    logger.warn(
      { certPath: tls.files.certPath, validTo: tls.material.validTo },
      "gateway tls: the certificate has expired; clients that verify it will refuse the connection: renew it",
    );
  }
  if (auth.generatedTokenFile) {
    opts.notice(`Generated a gateway token (shown once): ${auth.token}\n` + `It is stored in ${auth.generatedTokenFile} (mode 0600); local CLI commands read it from there.\n`);
  }

  const configPathForEdits = current.path ?? defaultConfigPathForWrite(stateDir);
  const missingModel = noModelNotice(config, configPathForEdits);
  if (missingModel) {
    logger.warn({ configPath: configPathForEdits }, "no model configured: agent turns fail until agents.defaults.model is set");
    opts.notice(missingModel);
  }
  for (const warning of modelConfigWarnings(config, env)) logger.warn({ configPath: configPathForEdits }, `unusable model: ${warning}`);

  const reloadStatus: ConfigReloadStatus = { hotReloadStatus: "off", pendingRestartPaths: [] };
  const hotReload = config.gateway?.reload?.mode !== "off";
  // Renewed certificate files are served without a restart, unless reload is off (then on SIGHUP).
  let tlsRenewal: TlsRenewal | undefined;
  if (tls) {
    const { TlsRenewal } = await import("./tls/tls-renewal.js");
    tlsRenewal = new TlsRenewal(
      tls.files,
      tls.material,
      (material) => listener.renewTls(material.options),
      logger,
      () => current.config.gateway?.reload?.mode === "off",
    );
  }
  tlsRenewal?.start();
  // Without a file, watch (and let config.* create) where `config set` would, so a first config applies live.
  const configFile = current.path ?? defaultConfigPathForWrite(stateDir);
  const applyChange = (change: ConfigChange): void => {
    current = change.loaded;
    reloadStatus.lastReloadAt = Date.now();
    delete reloadStatus.lastError;
    const newLevels = logLevels(opts.logLevel, env, change.loaded.config);
    setLevels(newLevels.file, newLevels.console);
    server.applyConfig(change.loaded);
    stability.enabled = change.loaded.config.diagnostics?.enabled !== false;
    if (change.loaded.config.gateway?.reload?.mode !== "off") tlsRenewal?.resume();
    lock.update({ stopDeadlineMs: shutdownDeadlineMs(change.loaded.config, env) });
    for (const warning of change.loaded.warnings) logger.warn(warning);
    for (const warning of modelConfigWarnings(change.loaded.config, env)) logger.warn(`unusable model: ${warning}`);
    logger.info({ changedPaths: change.changedPaths }, "config reloaded");
    if (change.restartRequiredPaths.length > 0) {
      reloadStatus.pendingRestartPaths = [...new Set([...reloadStatus.pendingRestartPaths, ...change.restartRequiredPaths])];
      logger.warn({ paths: change.restartRequiredPaths }, "config change requires gateway restart to take effect");
    }
  };
  const rejectChange = (err: ConfigError): void => {
    reloadStatus.lastError = err.message;
    logger.error({ error: err.message }, "config reload skipped (invalid config); keeping the running config");
  };
  // A config.* write applies at once instead of waiting for the watcher's debounce; the watcher
  // then sees the hash it already has and does nothing.
  // `rereadSecrets` (secrets.reload): the same file can now resolve to other secrets, so it is compared key by key too.
  // Exec SecretRefs: the answers the last load had, unless the caller fetched new ones (`execReads`).
  const reloadConfigNow = (opts: { rereadSecrets?: boolean; execReads?: ExecSecretReads } = {}): ConfigReloadOutcome => {
    const loaded = loadConfigFromBytes(fs.readFileSync(configFile), configFile, env, opts.execReads ?? answeredExecReads, overrides);
    const sameFile = configSignature(loaded) === configSignature(current) && !opts.rereadSecrets;
    const changedPaths = sameFile ? [] : diffConfigPaths(current.config, loaded.config);
    const change: ConfigChange = { loaded, changedPaths, restartRequiredPaths: restartRequiredPaths(changedPaths) };
    if (!hotReload) return { applied: false, changedPaths, restartRequiredPaths: change.restartRequiredPaths };
    if (changedPaths.length > 0) applyChange(change);
    else current = loaded; // same keys (comments, formatting): the new hash is what clients edit against
    return { applied: true, changedPaths, restartRequiredPaths: change.restartRequiredPaths };
  };

  // `/debug set`: values over the file's, in memory only.
  let overrides = RuntimeOverrides.none;
  const changeOverrides = (next: RuntimeOverrides): RuntimeOverrideOutcome => {
    const unknown = next.unknownKeyIssues();
    if (unknown.length > 0) return { ok: false, message: unknown.map((issue) => `${issue.path}: ${issue.message}`).join("; ") };
    let loaded: LoadedConfig;
    try {
      loaded = fs.existsSync(configFile)
        ? loadConfigFromBytes(fs.readFileSync(configFile), configFile, env, answeredExecReads, next)
        : loadConfig({ stateDir, env, path: null, overrides: next });
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
    const changedPaths = diffConfigPaths(current.config, loaded.config);
    const atStart = restartRequiredPaths(changedPaths);
    if (atStart.length > 0) {
      return {
        ok: false,
        message: `${atStart.join(", ")} ${atStart.length > 1 ? "are" : "is"} read only at start, and a restart drops runtime overrides: change it in the config file (/config set) instead`,
      };
    }
    overrides = next;
    if (changedPaths.length > 0) applyChange({ loaded, changedPaths, restartRequiredPaths: [] });
    else current = loaded;
    logger.info({ overrides: next.list().map((entry) => entry.path), changedPaths }, "runtime overrides changed");
    return { ok: true, changedPaths };
  };
  const runtimeOverrides: RuntimeOverridesControl = {
    list: () => overrides.list(),
    set: (path, value) => {
      try {
        return changeOverrides(overrides.with(path, value));
      } catch (err) {
        return { ok: false, message: (err as Error).message };
      }
    },
    unset: (path) => {
      const next = overrides.without(path);
      return next ? changeOverrides(next) : { ok: false, message: `${path} has no runtime override` };
    },
    reset: () => changeOverrides(RuntimeOverrides.none),
  };

  let restartTimer: NodeJS.Timeout | undefined;
  const requestRestart = (reason: string, delayMs: number): RestartPlan => {
    const restart = opts.restart;
    if (!restart) return { scheduled: false, reason: "this gateway runs inside another program and cannot restart itself: restart it to apply the change" };
    if (!restartTimer) {
      logger.warn({ reason, delayMs }, "gateway restart scheduled");
      restartTimer = setTimeout(() => restart(reason), delayMs);
      restartTimer.unref();
    }
    return { scheduled: true, delayMs };
  };

  const { GatewayServer } = await import("./server.js");
  const server = new GatewayServer({
    listener,
    host,
    port: boundPort,
    stateDir,
    version,
    startedAt,
    logger,
    logFileHealth,
    auth,
    loadedConfig: () => current,
    configReloadStatus: () => reloadStatus,
    configFilePath: () => configFile,
    reloadConfigNow,
    runtimeOverrides,
    requestRestart,
    startRefusals: (config) => configStartRefusals(config, env, opts),
    tickIntervalMs: positiveIntSetting(env.OPENCLAW_TICK_INTERVAL_MS) ?? DEFAULT_TICK_INTERVAL_MS,
    handshakeTimeoutMs: positiveIntSetting(env.OPENCLAW_HANDSHAKE_TIMEOUT_MS) ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
    ...(opts.cronClock ? { cronClock: opts.cronClock } : {}),
    ...(tlsRenewal ? { tls: () => ({ fingerprintSha256: tlsRenewal.current.fingerprint, validTo: tlsRenewal.current.validTo }) } : {}),
  });
  await server.start();
  const stopMemorySampler = startMemorySampler(stability);

  let watcher: { close(): Promise<void> } | undefined;
  if (hotReload) {
    watcher = await watchConfig({
      path: configFile,
      stateDir,
      env,
      current: () => current,
      onChange: applyChange,
      onInvalid: rejectChange,
      overrides: () => overrides,
    });
    reloadStatus.hotReloadStatus = "watching";
  }

  const secure = tls !== undefined;
  const controlUiLink = controlUi.enabled && server.controlUiServed ? controlUiUrl(host, boundPort, controlUi.basePath, { secure }) : undefined;
  logger.info(
    {
      host,
      port: boundPort,
      ...(loopbackAliasFor(host) ? { alsoListening: loopbackAliasFor(host) } : {}),
      authMode: auth.mode,
      stateDir,
      configPath: current.path,
      portOpenMs,
      openedEarly,
      readyMs: Math.round(performance.now()),
      ...(tls ? { tls: { fingerprintSha256: tls.material.fingerprint, validTo: tls.material.validTo, certPath: tls.files.certPath } } : {}),
      ...(controlUiLink ? { controlUi: controlUiLink } : {}),
    },
    "gateway listening",
  );
  // The link that signs a browser in carries the token: for a person's terminal only, never a log.
  if (controlUiLink && opts.controlUiLinkWithToken && auth.mode === "token") {
    opts.notice(`Control UI: ${controlUiUrl(host, boundPort, controlUi.basePath, { token: auth.token, secure })}\n`);
  }

  let stopping: Promise<void> | undefined;
  const handle = {
    host,
    port: boundPort,
    stateDir,
    logger,
    reloadConfig() {
      // Read the file now, whatever gateway.reload.mode says: SIGHUP is an explicit request.
      let loaded: LoadedConfig;
      try {
        loaded = loadConfig({ stateDir, env, overrides });
      } catch (err) {
        if (err instanceof ConfigError) return rejectChange(err);
        throw err;
      }
      // An explicit reload also serves certificate files renewed meanwhile (whatever gateway.reload.mode says).
      tlsRenewal?.check();
      const changedPaths = diffConfigPaths(current.config, loaded.config);
      if (changedPaths.length === 0) return void logger.info({ configPath: loaded.path }, "config reload requested: no change");
      applyChange({ loaded, changedPaths, restartRequiredPaths: restartRequiredPaths(changedPaths) });
    },
    restartOnSignal(signal: string) {
      if (current.config.commands?.restart === false) {
        logger.warn({ signal }, `${signal} restart refused: commands.restart is false in the config (set it to true, or stop and start the gateway)`);
        return;
      }
      requestRestart(signal, 0);
    },
    stop(reason: string, restartExpectedMs?: number) {
      stopping ??= (async () => {
        clearTimeout(restartTimer);
        stopMemorySampler();
        logger.info({ reason }, "gateway stopping");
        await server.stopStages.run("config watcher close", async () => watcher?.close().catch(() => {}));
        tlsRenewal?.close();
        await server.stop(reason, restartExpectedMs);
        await server.stopStages.run("HTTP listener close", () => listener.close());
        lock.release();
        logger.info("gateway stopped");
        closeLogFile();
      })();
      return stopping;
    },
    stopDeadlineMs: () => shutdownDeadlineMs(current.config, env),
    abandonStop(why: string) {
      const pending = server.stopStages.pending();
      logger.error({ pending }, unfinishedStopMessage(why, pending));
      // While the lock is still held: this process is the index's only writer until it is released.
      server.saveBeforeAbandonedStop();
      try {
        lock.release();
      } catch {
        // A lock that cannot be removed is left for the next start, which takes over a dead holder's lock.
      }
    },
  };
  // Writing beside another gateway would corrupt the sessions: a gateway that lost its lock stops.
  lock.onLost((error) => {
    logger.error({ err: error }, "gateway lock lost");
    void handle.stop("state lock lost");
  });
  return handle;
}

interface CheckedStart {
  stateDir: string;
  loaded: LoadedConfig;
  config: LoadedConfig["config"];
  bind: GatewayAddress;
  host: string;
  port: number;
  auth: ResolvedAuth;
  controlUi: ControlUiSettings;
  version: string;
  lock: StateLock;
  envNotes: EnvNotes;
}

/** Everything that must hold before the gateway may serve: config, mode, address, auth, Control UI settings, the lock. */
function checkStart(opts: RunGatewayOptions, startedAt: number): CheckedStart {
  const env = opts.env;
  const stateDir = resolveStateDir(env);
  ensurePrivateDir(stateDir);
  const loaded = loadConfig({ stateDir, env });
  const config = loaded.config;
  // Before anything reads the environment (the token, provider keys): what env.* adds to it.
  const envNotes = applyConfigEnv(config, env);
  if (config.gateway?.mode === "remote" && !opts.allowUnconfigured) throw new GatewayStartError(REMOTE_MODE_REFUSAL);
  const bind = resolveGatewayAddress({
    portFlag: opts.port,
    bindFlag: opts.bind,
    envPort: env.OPENCLAW_GATEWAY_PORT,
    configured: { port: config.gateway?.port, bind: config.gateway?.bind as BindMode | undefined, customBindHost: config.gateway?.customBindHost },
  });
  const { host, port } = bind;
  const auth = resolveServerAuth(config, stateDir, env, { mode: opts.authMode, token: opts.token, password: opts.password });
  const bindRefusal = unauthenticatedBindRefusal(auth.mode, host, port);
  if (bindRefusal) throw new GatewayStartError(bindRefusal);
  let controlUi: ControlUiSettings;
  try {
    controlUi = resolveControlUiSettings(config);
  } catch (err) {
    throw new GatewayStartError((err as Error).message);
  }
  try {
    shutdownTimeoutFromEnv(env);
  } catch (err) {
    throw new GatewayStartError((err as Error).message);
  }
  const version = packageVersion();
  const lock = StateLock.acquire(stateDir, { pid: process.pid, host, port, startedAt, version });
  return { stateDir, loaded, config, bind, host, port, auth, controlUi, version, lock, envNotes };
}

/**
 * The early listener when it is at `host:port` (port 0: any port it got), else a new listener
 * there — and on 127.0.0.1 as well, on the same port, when `host` is a specific IPv4 address
 * (see loopbackAliasFor). `host` is bound first, so the port it got is the one 127.0.0.1 takes;
 * requests wait until the app attaches, and a failure on either address closes both and stops the
 * start.
 */
async function openPort(
  opts: RunGatewayOptions,
  host: string,
  port: number,
  releaseLock: () => void,
  secure: SecureContextOptions | undefined,
): Promise<{ listener: EarlyListener; boundPort: number; portOpenMs: number; openedEarly: boolean }> {
  const early = opts.early;
  // The early listener is plain HTTP: a TLS gateway opens its own.
  if (early && early.host === host && early.port === port && !secure) {
    return { listener: early.listener, boundPort: early.boundPort, portOpenMs: early.portOpenMs, openedEarly: true };
  }
  await early?.listener.close();
  const listener = createListener(opts.env, secure);
  const alias = loopbackAliasFor(host);
  let boundPort = port;
  let address = host;
  try {
    boundPort = await listener.listen(port, host);
    if (alias) {
      address = alias;
      await listener.listenAlso(boundPort, alias);
    }
  } catch (err) {
    await listener.close();
    releaseLock();
    throw listenError(err as NodeJS.ErrnoException, address, boundPort, address === alias ? host : undefined);
  }
  // Milliseconds from process start to an open port: the figure users feel as "start time".
  return { listener, boundPort, portOpenMs: Math.round(performance.now()), openedEarly: false };
}

/** A failed listen on `host:port` in words that name the address and the fix; `beside`: the address a loopback listener accompanies. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number, beside: string | undefined): Error {
  const fix = "stop what holds it, or choose another port (gateway.port or --port)";
  if (err.code === "EADDRINUSE" && beside) {
    return new GatewayStartError(`${host}:${port} is already in use (a gateway on ${beside} listens on ${host} too, on the same port, for clients on this machine): ${fix}`);
  }
  if (err.code === "EADDRINUSE") return new GatewayStartError(`port ${port} on ${host} is already in use: ${fix}`);
  if (err.code === "EADDRNOTAVAIL") return new GatewayStartError(`cannot bind ${host}: address not available on this machine (check gateway.bind and gateway.customBindHost)`);
  return err;
}

interface EnvNotes {
  applied: string[];
  warnings: string[];
}

/** `env.vars`, then (when `env.shellEnv.enabled` or `OPENCLAW_LOAD_SHELL_ENV=1`) the login shell's variables: each only where `env` has none. */
function applyConfigEnv(config: LoadedConfig["config"], env: NodeJS.ProcessEnv): EnvNotes {
  const applied = applyConfigEnvVars(config.env?.vars, env);
  const warnings: string[] = [];
  if (config.env?.shellEnv?.enabled === true || env.OPENCLAW_LOAD_SHELL_ENV === "1") {
    const shell = importLoginShellEnv(env, config.env?.shellEnv?.timeoutMs);
    applied.push(...shell.applied);
    if (shell.warning) warnings.push(shell.warning);
  }
  return { applied, warnings };
}

/**
 * The log file's level and the console's: `--log-level`, else OPENCLAW_LOG_LEVEL, sets both;
 * otherwise the file follows `logging.level` and the console `logging.consoleLevel`, else the same.
 */
function logLevels(flag: string | undefined, env: NodeJS.ProcessEnv, config: OpenClawConfig): { file: LevelWithSilent; console: LevelWithSilent } {
  const forced = [flag, env.OPENCLAW_LOG_LEVEL].find(isLogLevel);
  const file = forced ?? (isLogLevel(config.logging?.level) ? config.logging.level : "info");
  return { file, console: forced ?? config.logging?.consoleLevel ?? file };
}
