import type { ServerFlags } from "./gateway-run.js";

export const LOG_LEVEL_CHOICES = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const BIND_CHOICES = ["loopback", "lan", "auto", "tailnet", "custom"] as const;
export const AUTH_CHOICES = ["none", "token", "password"] as const;

/** `--name <value>` options of `gateway run`, with the flag key each sets and its allowed values. */
const VALUE_OPTIONS = new Map<string, { key: keyof ServerFlags; choices?: readonly string[] }>([
  ["--port", { key: "port" }],
  ["--bind", { key: "bind", choices: BIND_CHOICES }],
  ["--auth", { key: "auth", choices: AUTH_CHOICES }],
  ["--token", { key: "token" }],
  ["--password", { key: "password" }],
  ["--log-level", { key: "logLevel", choices: LOG_LEVEL_CHOICES }],
]);

/**
 * The flags of `openclaw gateway run …` when the command line is that and nothing unusual: each
 * option at most once, as `--name value` (or `--allow-unconfigured`), values that are not
 * themselves dashed, choices among those allowed. Commander reads such a line the same way; the
 * gateway (and the daemon, which spawns exactly such a line) then starts without building the
 * whole commander program first. Anything else is `undefined`, left to commander: its help,
 * errors and other spellings stay the only ones.
 */
export function parseGatewayRunArgs(args: readonly string[]): ServerFlags | undefined {
  if (args[0] !== "gateway" || args[1] !== "run") return undefined;
  const flags: ServerFlags = {};
  const seen = new Set<string>();
  for (let i = 2; i < args.length; i++) {
    const name = args[i]!;
    if (seen.has(name)) return undefined;
    seen.add(name);
    if (name === "--allow-unconfigured") {
      flags.allowUnconfigured = true;
      continue;
    }
    const option = VALUE_OPTIONS.get(name);
    const value = args[i + 1];
    if (!option || value === undefined || value.startsWith("-")) return undefined;
    if (option.choices && !option.choices.includes(value)) return undefined;
    (flags as Record<string, string>)[option.key] = value;
    i += 1;
  }
  return flags;
}
