import { spawnSync } from "node:child_process";
import { fillMissing } from "./env-sources.js";

export const DEFAULT_SHELL_ENV_TIMEOUT_MS = 15_000;

/**
 * `env.shellEnv.enabled` (or `OPENCLAW_LOAD_SHELL_ENV=1`): runs the user's login shell once
 * (`$SHELL -l -c "env -0"`, bounded by `timeoutMs`) and takes the variables it sets that `env`
 * lacks, so keys exported in a profile reach a gateway started by a service manager.
 */
export function importLoginShellEnv(env: NodeJS.ProcessEnv, timeoutMs = DEFAULT_SHELL_ENV_TIMEOUT_MS): { applied: string[]; warning?: string } {
  const shell = env.SHELL?.trim() || "/bin/sh";
  const run = spawnSync(shell, ["-l", "-c", "env -0"], { env, timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });
  if (run.error || run.status !== 0) {
    const why = run.error ? run.error.message : `exit ${run.status ?? run.signal}`;
    return { applied: [], warning: `env.shellEnv: the login shell ${shell} did not list its environment (${why}); its variables were not imported` };
  }
  const entries = run.stdout
    .toString("utf8")
    .split("\0")
    .flatMap((line): [string, string][] => {
      const eq = line.indexOf("=");
      return eq > 0 ? [[line.slice(0, eq), line.slice(eq + 1)]] : [];
    });
  return { applied: fillMissing(env, entries) };
}
