import { ConfigError } from "../config/index.js";
import { parsePortNumber } from "../gateway/gateway-address.js";
import type { ErrorShape } from "../gateway/protocol/errors.js";

/** Exit code for an invalid config, as OpenClaw (systemd's RestartPreventExitStatus=78). */
export const EXIT_CONFIG_INVALID = 78;

/** A failure the CLI reports as one message and an exit code, without a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The last word of a failed command. A gateway's refusal keeps its error code (and, in JSON, its
 * details, such as CONFIG_CONFLICT's `currentHash`), so scripts can tell failures apart.
 */
export function reportCliError(err: unknown, json: boolean): never {
  const exitCode = err instanceof ConfigError ? EXIT_CONFIG_INVALID : err instanceof CliError ? err.exitCode : 1;
  const message = err instanceof ConfigError ? `invalid config: ${err.message}` : err instanceof Error ? err.message : String(err);
  const gateway = gatewayErrorShape(err);
  if (json) {
    const { code, details, retryable, retryAfterMs } = gateway ?? {};
    printJson({ ok: false, error: { type: "cli_error", message, ...(code ? { code } : {}), ...(details ? { details } : {}), ...(retryable ? { retryable, retryAfterMs } : {}) } });
  } else process.stderr.write(`openclaw: ${message}${gateway ? ` [${gateway.code}]` : ""}\n`);
  process.exit(exitCode);
}

/** The gateway's error a failed call carries (GatewayClientError.error), read without loading the client. */
function gatewayErrorShape(err: unknown): ErrorShape | undefined {
  const shape = err instanceof Error ? (err as { error?: unknown }).error : undefined;
  return shape && typeof shape === "object" && typeof (shape as ErrorShape).code === "string" ? (shape as ErrorShape) : undefined;
}

/**
 * A `--timeout` flag: every command takes seconds (as OpenClaw's CLI does), fractions allowed.
 * `allowZero`: 0 means "no limit". Returns milliseconds.
 */
export function parseTimeoutSeconds(value: string | undefined, defaultSeconds: number, opts: { allowZero?: boolean } = {}): number {
  const seconds = value === undefined ? defaultSeconds : Number(value);
  const ok = Number.isFinite(seconds) && (opts.allowZero ? seconds >= 0 : seconds > 0);
  if (!ok || value?.trim() === "") throw new CliError(`--timeout: expected ${opts.allowZero ? "seconds (0 = none)" : "a positive number of seconds"}, got "${value}"`);
  return Math.round(seconds * 1000);
}

/** A `--port` for this run: 0 means any free port. */
export function parsePortFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = parsePortNumber(value);
  if (n === undefined) throw new CliError(`--port: expected integer 0-65535, got "${value}"`);
  return n;
}

/** A `--port` written into the config or a service file: 1-65535, as `gateway.port` (any free port would change at every start). */
export function parseFixedPortFlag(value: string | undefined): number | undefined {
  const n = parsePortFlag(value);
  if (n === 0) throw new CliError(`--port: expected integer 1-65535, got "${value}" (0, any free port, only suits \`gateway run\`)`);
  return n;
}
