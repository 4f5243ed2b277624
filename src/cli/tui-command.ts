import { cliConnectOptions, GatewayClientError } from "../gateway/client.js";
import { packageVersion } from "../infra/version.js";
import { resolveClientTarget } from "./client-context.js";
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
  if (!process.stdin.isTTY || !process.stdout.isTTY) throw new CliError("openclaw tui needs a terminal (stdin and stdout a TTY); use `openclaw agent -m <text>` from a script");
  const historyLimit = parseHistoryLimit(flags.historyLimit);
  const target = resolveClientTarget({ url: flags.url, token: flags.token, password: flags.password });
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
    throw connectFailure(err, target.url, Boolean(flags.url));
  }
  // The session: --session (a bare key is the default agent's), else the default agent's main session.
  const agents = await connection.call<{ defaultId?: string; mainKey?: string }>("agents.list", {}).catch((err: Error) => {
    connection.close();
    throw err;
  });
  const defaultAgent = agents.defaultId ?? "main";
  const mainKey = agents.mainKey ?? "main";
  const sessionKey = expandSessionKey(flags.session?.trim() || mainKey, defaultAgent);
  app = new TuiApp({
    connection,
    agentId: /^agent:([^:]+):/.exec(sessionKey)?.[1] ?? defaultAgent,
    sessionKey,
    mainKey,
    deliver: flags.deliver === true,
    historyLimit,
    utf8: localeIsUtf8(),
    stdin: process.stdin,
    stdout: process.stdout,
  });
  const running = app;
  const leave = () => running.stop(0);
  process.once("SIGTERM", leave);
  process.once("SIGHUP", leave);
  await running.start();
  return running.done;
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

/** The first connection's failure, with what fixes it: refused credentials or nobody listening. */
function connectFailure(err: unknown, url: string, explicitUrl: boolean): Error {
  if (!(err instanceof GatewayClientError)) return err as Error;
  if (err.networkCode === "ECONNREFUSED") {
    return new CliError(
      `${err.message}: no gateway is running there. Start one with \`${openclawCommand("gateway start")}\`${explicitUrl ? "" : " (or pass --url for a gateway elsewhere)"}.`,
    );
  }
  if (/unauthorized/i.test(err.message)) {
    const where = explicitUrl ? "with --url, only --token and --password are used" : "without --url, OPENCLAW_GATEWAY_TOKEN and the config's gateway token are used too";
    return new CliError(
      `the gateway at ${url} refused the connection: ${err.message}. Pass the gateway's token with --token <token> (or its password with --password <password>); ${where}.`,
    );
  }
  return err;
}
