import { createHash } from "node:crypto";

/** A server this process may start on demand and stop again: one provider's `localService`. */
export interface LocalServiceSpec {
  /** Names the service in logs and errors, such as `models.providers.local.localService`. */
  label: string;
  /** An absolute path, run directly (no shell, no PATH lookup). */
  command: string;
  args: readonly string[];
  cwd?: string;
  /** Merged over this process's environment; the values never reach a log. */
  env?: Readonly<Record<string, string>>;
  /** Ready once a GET here answers 2xx. */
  healthUrl: string;
  /** Sent with each health GET. */
  healthHeaders?: Readonly<Record<string, string>>;
  /** How long a start may take to answer healthUrl. */
  readyTimeoutMs: number;
  /** Stop a process this supervisor started once no request has held it for this long; 0 keeps it until the process exits. */
  idleStopMs: number;
  /** Values masked in the captured output besides env and header values (an API key). */
  secrets?: readonly string[];
}

/**
 * Requests for the same command, arguments, directory, environment and health URL share one
 * server; anything else is another service (a changed config starts its own).
 */
export function localServiceKey(spec: LocalServiceSpec): string {
  const env = Object.entries(spec.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const envHash = createHash("sha256").update(JSON.stringify(env)).digest("hex");
  return JSON.stringify([spec.label, spec.command, spec.args, spec.cwd ?? "", envHash, spec.healthUrl]);
}
