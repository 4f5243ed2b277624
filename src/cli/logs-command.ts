import { connectClient, resolveClientTarget, type ClientFlags } from "./client-context.js";
import { LOGS_LEVEL_CHOICES } from "./ops-choices.js";
import { CliError } from "./output.js";

/** pino's numeric levels. */
const LEVELS: Record<(typeof LOGS_LEVEL_CHOICES)[number], number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const FOLLOW_POLL_MS = 1_000;

interface LogsFlags extends ClientFlags {
  follow?: boolean;
  level?: string;
  limit?: string;
}

interface TailAnswer {
  cursor: number;
  lines: string[];
  reset?: boolean;
}

/** One log line for a person: `12:00:01.234 WARN  message key=value …`; a line that is not JSON as it is. */
export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, pid: _pid, hostname: _hostname, ...rest } = entry;
  const name = LOGS_LEVEL_CHOICES.find((key) => LEVELS[key] === level) ?? String(level ?? "");
  const at = typeof time === "number" ? new Date(time).toISOString().slice(11, 23) : "";
  const fields = Object.entries(rest).map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return [at, name.toUpperCase().padEnd(5), String(msg ?? ""), ...fields].filter(Boolean).join(" ");
}

function levelOf(line: string): number {
  try {
    return Number((JSON.parse(line) as { level?: unknown }).level) || 0;
  } catch {
    return 0;
  }
}

/**
 * `openclaw logs [--follow] [--json] [--level L] [--limit N]`: the gateway's log through `logs.tail`,
 * so it works wherever the gateway runs. `--follow` asks for what is new every second until
 * Ctrl-C; `--json` prints the raw JSON lines.
 */
export async function logsCommand(flags: LogsFlags): Promise<void> {
  const minLevel = flags.level === undefined ? 0 : LEVELS[flags.level as keyof typeof LEVELS];
  if (minLevel === undefined) throw new CliError(`--level: expected one of ${LOGS_LEVEL_CHOICES.join(", ")}`);
  const limit = flags.limit === undefined ? 200 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw new CliError("--limit: expected an integer from 1 to 5000");
  const timeoutMs = resolveClientTarget(flags).timeoutMs;
  const client = await connectClient(flags);
  const print = (lines: string[]) => {
    const shown = lines.filter((line) => levelOf(line) >= minLevel).map((line) => (flags.json ? line : formatLogLine(line)));
    if (shown.length > 0) process.stdout.write(`${shown.join("\n")}\n`);
  };
  try {
    let answer = (await client.call("logs.tail", { limit }, { timeoutMs })) as TailAnswer;
    print(answer.lines);
    if (!flags.follow) return;
    let stopped = false;
    let wake: (() => void) | undefined;
    const stop = () => {
      stopped = true;
      wake?.();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    client.onClose(() => {
      if (!stopped) {
        process.stderr.write("openclaw: the gateway closed the connection; stopped following\n");
        process.exitCode = 1;
        stop();
      }
    });
    while (!stopped) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, FOLLOW_POLL_MS).unref();
      });
      if (stopped) break;
      answer = (await client.call("logs.tail", { cursor: answer.cursor, limit: 5000 }, { timeoutMs })) as TailAnswer;
      if (answer.reset && !flags.json) process.stderr.write("(log file rotated)\n");
      print(answer.lines);
    }
  } finally {
    client.close();
  }
}
