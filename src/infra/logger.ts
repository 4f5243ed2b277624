import fs from "node:fs";
import path from "node:path";
import type { Logger, LevelWithSilent, StreamEntry } from "pino";

export type { Logger };

export interface LoggerOptions {
  level: LevelWithSilent;
  /** JSON lines go here; the directory is created 0700. */
  file: string;
  /** Also write to stdout: pretty one-liners on a TTY, JSON lines otherwise. */
  console: boolean;
}

/**
 * Secrets never belong in logs. Call sites avoid logging them; these paths are the second line
 * of defence for objects logged whole (configs, connect params).
 */
const REDACT_PATHS = [
  "token", "password", "apiKey", "auth.token", "auth.password",
  "*.token", "*.password", "*.apiKey", "*.auth.token", "*.auth.password",
  "params.auth", "config.gateway.auth",
];

/** pino loads on first use, after the gateway's port is open, to keep cold start short. */
export async function createLogger(opts: LoggerOptions): Promise<Logger> {
  const { default: pino } = await import("pino");
  fs.mkdirSync(path.dirname(opts.file), { recursive: true, mode: 0o700 });
  const streams: StreamEntry[] = [
    { level: "trace", stream: pino.destination({ dest: opts.file, sync: true, mkdir: true }) },
  ];
  if (opts.console) {
    if (process.stdout.isTTY) {
      const { default: pretty } = await import("pino-pretty");
      streams.push({ level: "trace", stream: pretty({ colorize: true, sync: true, singleLine: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" }) });
    } else {
      streams.push({ level: "trace", stream: pino.destination({ dest: 1, sync: true }) });
    }
  }
  return pino(
    { level: opts.level, base: { pid: process.pid }, redact: { paths: REDACT_PATHS, censor: "[redacted]" } },
    pino.multistream(streams),
  );
}

export const LOG_LEVELS: readonly LevelWithSilent[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function isLogLevel(value: unknown): value is LevelWithSilent {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}
