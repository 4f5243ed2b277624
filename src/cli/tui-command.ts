import { cliConnectOptions, GatewayClientError } from "../gateway/client.js";
import { packageVersion } from "../infra/version.js";
import { type ClientTarget, resolveClientTarget } from "./client-context.js";
import { CliError } from "./output.js";
import { openclawCommand } from "./root-options.js";
import { GatewayConnection } from "./tui/connection.js";
import { expandSessionKey } from "./tui/slash-commands.js";
import { localeIsUtf8 } from "./tui/terminal-text.js";
import { TuiApp } from "./tui/tui-app.js";

export interface TuiFlags {
  url?: string;
  token?: string;
  password?: string;
  tlsFingerprint?: string;
  session?: string;
  deliver?: boolean;
  local?: boolean;
  historyLimit?: string;
}

/** Exit code of a refused mode (`--local`, `openclaw chat`): the command line asks for what this CLI does not do. */
const EXIT_NOT_SUPPORTED = 2;

/**
 * `openclaw tui` (docs/cli.md#tui): the terminal chat client of a running gateway, connected as
 * the CLI's other gateway commands are (same address and credential resolution, same WebSocket
 * client). Resolves once the user leaves; the process exit code is the returned one.
 */
export async function tuiCommand(flags: TuiFlags): Promise<number> {
  if (flags.local) throw localModeRefusal("openclaw tui --local");
  if (!hasTerminal()) throw new CliError("openclaw tui needs a terminal (stdin and stdout a TTY); use `openclaw agent -m <text>` from a script");
  const historyLimit = parseHistoryLimit(flags.historyLimit);
  const target = resolveClientTarget({ url: flags.url, token: flags.token, password: flags.password, tlsFingerprint: flags.tlsFingerprint });
  const gateway = await connectTuiGateway(target, connectHints(Boolean(flags.url)));
  // The session: --session (a bare key is the default agent's), else the default agent's main session.
  const sessionKey = expandSessionKey(flags.session?.trim() || gateway.mainKey, gateway.defaultAgent);
  return runTui(gateway, { sessionKey, deliver: flags.deliver === true, historyLimit });
}

/** The TUI and the resume picker draw on stdout and read raw keys from stdin: both must be a terminal. */
export function hasTerminal(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/** The TUI's open connection to a gateway, with the gateway's default agent and main session key. */
export interface TuiGateway {
  connection: GatewayConnection;
  defaultAgent: string;
  mainKey: string;
  /** From now on the connection's events go to `app`. */
  attach(app: TuiApp): void;
}

/**
 * Opens the TUI's connection to `target` (as client `openclaw-tui` in `ui` mode, with tool
 * events) and reads the gateway's agents. A refused or unreachable first connection is a
 * CliError naming the address and the fix (`hints`).
 */
export async function connectTuiGateway(target: ClientTarget, hints: ConnectHints): Promise<TuiGateway> {
  const options = { ...cliConnectOptions(target, packageVersion(), ["tool-events"]), clientId: "openclaw-tui", mode: "ui" };
  let app: TuiApp | undefined;
  const connection = new GatewayConnection(options, {
    event: (name, payload) => app?.gatewayEvent(name, payload),
    state: (state, detail) => app?.connectionChanged(state, detail),
    reconnected: () => void app?.reconnected(),
  });
  try {
    await connection.open();
  } catch (err) {
    connection.close();
    throw connectFailure(err, target.url, hints);
  }
  const agents = await connection.call<{ defaultId?: string; mainKey?: string }>("agents.list", {}).catch((err: Error) => {
    connection.close();
    throw err;
  });
  return {
    connection,
    defaultAgent: agents.defaultId ?? "main",
    mainKey: agents.mainKey ?? "main",
    attach: (running) => {
      app = running;
    },
  };
}

export interface TuiSessionOptions {
  /** An agent-qualified key (`agent:<id>:<rest>`). */
  sessionKey: string;
  deliver: boolean;
  historyLimit: number;
}

/** Runs the TUI on `gateway`'s connection, opened on one session; resolves with the exit code when the user leaves. */
export async function runTui(gateway: TuiGateway, session: TuiSessionOptions): Promise<number> {
  const app = new TuiApp({
    connection: gateway.connection,
    agentId: /^agent:([^:]+):/.exec(session.sessionKey)?.[1] ?? gateway.defaultAgent,
    sessionKey: session.sessionKey,
    mainKey: gateway.mainKey,
    deliver: session.deliver,
    historyLimit: session.historyLimit,
    utf8: localeIsUtf8(),
    stdin: process.stdin,
    stdout: process.stdout,
  });
  gateway.attach(app);
  const leave = () => app.stop(0);
  process.once("SIGTERM", leave);
  process.once("SIGHUP", leave);
  await app.start();
  return app.done;
}

/** OpenClaw's embedded mode: the TUI here talks to a gateway only. */
export function localModeRefusal(command: string): CliError {
  return new CliError(
    `${command}: local (embedded) mode is not supported here: start the gateway (\`${openclawCommand("gateway start")}\`) and run \`${openclawCommand("tui")}\`; for one turn without a gateway, \`${openclawCommand("agent --local -m <text>")}\``,
    EXIT_NOT_SUPPORTED,
  );
}

function parseHistoryLimit(value: string | undefined): number {
  if (value === undefined) return 200;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new CliError(`--history-limit: expected a whole number from 1 to 1000, got "${value}"`);
  return n;
}

/** What the first connection's failure adds to its fix: how to name another gateway, and which credentials were tried. */
export interface ConnectHints {
  /** Appended to "Start one with `openclaw gateway start`" (empty, or " (or pass --url …)"). */
  elsewhere: string;
  /** Which credentials this connection used, after "Pass the gateway's token with --token …;". */
  credentials: string;
}

/** The hints of a target given by --url (`explicitUrl`) or resolved from env and config. */
export function connectHints(explicitUrl: boolean): ConnectHints {
  return explicitUrl
    ? { elsewhere: "", credentials: "with --url, only --token and --password are used" }
    : { elsewhere: " (or pass --url for a gateway elsewhere)", credentials: "without --url, OPENCLAW_GATEWAY_TOKEN and the config's gateway token are used too" };
}

/** The first connection's failure, with what fixes it: nobody listening, an address that does not answer, or refused credentials. */
function connectFailure(err: unknown, url: string, hints: ConnectHints): Error {
  if (!(err instanceof GatewayClientError)) return err as Error;
  if (err.networkCode === "ECONNREFUSED") {
    return new CliError(`${err.message}: no gateway is running there. Start one with \`${openclawCommand("gateway start")}\`${hints.elsewhere}.`);
  }
  if (err.networkCode) {
    return new CliError(`${err.message}: nothing answered there. Check the address and that the gateway runs and is reachable from this machine${hints.elsewhere}.`);
  }
  if (/unauthorized/i.test(err.message)) {
    return new CliError(
      `the gateway at ${url} refused the connection: ${err.message}. Pass the gateway's token with --token <token> (or its password with --password <password>); ${hints.credentials}.`,
    );
  }
  return err;
}
