import fs from "node:fs";
import path from "node:path";
import type { Logger, LevelWithSilent, StreamEntry } from "pino";
import { colorEnabled } from "./color.js";
import { LogFile, type LogFileHealth } from "./log-file.js";
import { LogLevelGate, mostVerbose } from "./log-level-gate.js";

export type { Logger };

export interface LoggerOptions {
  /** The log file's level. */
  level: LevelWithSilent;
  /** JSON lines go here; the directory is created 0700. */
  file: string;
  /** Also write to stdout: pretty one-liners on a TTY, JSON lines otherwise (unless `consoleStyle` says). */
  console: boolean;
  /** The console's own level (default: `level`). */
  consoleLevel?: LevelWithSilent;
  consoleStyle?: "pretty" | "json";
  /** Rotate the file to `<file>.1` past this size; 0 or absent: never. */
  maxFileBytes?: number;
  /** Regular expressions whose matches are masked in every line, besides the built-in paths. */
  redactPatterns?: readonly string[];
}

export interface GatewayLogger {
  logger: Logger;
  /** New levels for the file and the console (a config reload). */
  setLevels(file: LevelWithSilent, console: LevelWithSilent): void;
  /** The log file's write failures and rotations, for `status`. */
  fileHealth(): LogFileHealth & { consoleErrors: number };
  /** Closes the log file (a gateway restarted in the same process opens its own). */
  close(): void;
}

/**
 * Secrets never belong in logs. Call sites avoid logging them; these paths are the second line
 * of defence for objects logged whole (configs, connect params).
 */
const REDACT_PATHS = [
  "token",
  "password",
  "apiKey",
  "auth.token",
  "auth.password",
  "*.token",
  "*.password",
  "*.apiKey",
  "*.auth.token",
  "*.auth.password",
  "params.auth",
  "config.gateway.auth",
];

/**
 * pino loads on first use, after the gateway's port is open, to keep cold start short. A write
 * that fails (a full disk, a closed stdout) never reaches the process as an error: the file
 * drops and counts the line, the console counts its errors.
 */
export async function createLogger(opts: LoggerOptions): Promise<GatewayLogger> {
  const { default: pino } = await import("pino");
  fs.mkdirSync(path.dirname(opts.file), { recursive: true, mode: 0o700 });
  const file = new LogFile(opts.file, opts.maxFileBytes ?? 0);
  let consoleErrors = 0;
  const fileGate = new LogLevelGate(file, opts.level);
  const consoleLevel = opts.consoleLevel ?? opts.level;
  const streams: StreamEntry[] = [{ level: "trace", stream: fileGate }];
  let consoleGate: LogLevelGate | undefined;
  if (opts.console) {
    const pretty = (opts.consoleStyle ?? (process.stdout.isTTY ? "pretty" : "json")) === "pretty";
    const consoleStream = pretty
      ? (await import("pino-pretty")).default({ colorize: colorEnabled(process.stdout), sync: true, singleLine: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" })
      : pino.destination({ dest: 1, sync: true });
    consoleStream.on("error", () => (consoleErrors += 1));
    consoleGate = new LogLevelGate(consoleStream, consoleLevel);
    streams.push({ level: "trace", stream: consoleGate });
  }
  const masks = compileRedactPatterns(opts.redactPatterns ?? []);
  const logger = pino(
    {
      level: opts.console ? mostVerbose(opts.level, consoleLevel) : opts.level,
      base: { pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      ...(masks.length > 0 ? { hooks: { streamWrite: (line: string) => masks.reduce((text, mask) => text.replace(mask, "[redacted]"), line) } } : {}),
    },
    pino.multistream(streams),
  );
  const setLevels = (fileLevel: LevelWithSilent, consoleLevelNow: LevelWithSilent): void => {
    fileGate.level = fileLevel;
    if (consoleGate) consoleGate.level = consoleLevelNow;
    logger.level = consoleGate ? mostVerbose(fileLevel, consoleLevelNow) : fileLevel;
  };
  return { logger, setLevels, fileHealth: () => ({ ...file.health(), consoleErrors }), close: () => file.close() };
}

/** `logging.redactPatterns` as global regular expressions (the config check refused invalid ones). */
export function compileRedactPatterns(patterns: readonly string[]): RegExp[] {
  return patterns.map((pattern) => new RegExp(pattern, "g"));
}

export const LOG_LEVELS: readonly LevelWithSilent[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function isLogLevel(value: unknown): value is LevelWithSilent {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}
