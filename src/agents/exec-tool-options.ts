import { perConfig, type OpenClawConfig } from "../config/index.js";
import type { ExecToolOptions } from "./tools/exec.js";

/** OpenClaw's bounds for `tools.exec.backgroundMs` (how long exec waits before handing a command to `process`). */
const BACKGROUND_MS_RANGE = { min: 10, max: 120_000 } as const;

/**
 * `tools.exec` as exec's options: the default timeout, how long a command runs in front before it
 * continues in the background (`backgroundMs`), and what a background command does when it ends
 * (`notifyOnExit`, `notifyOnExitEmptySuccess`, `cleanupMs`), captured by each command as it starts.
 * Only keys that are set appear, so the result is a stable cache key.
 */
export const execToolOptionsFromConfig: (config: OpenClawConfig) => ExecToolOptions = perConfig(readOptions);

function readOptions(config: OpenClawConfig): ExecToolOptions {
  const exec = config.tools?.exec ?? {};
  const completionSet = exec.notifyOnExit !== undefined || exec.notifyOnExitEmptySuccess !== undefined || exec.cleanupMs !== undefined;
  return {
    ...(exec.timeoutSeconds ? { defaultTimeoutSeconds: exec.timeoutSeconds } : {}),
    ...(exec.backgroundMs !== undefined ? { defaultYieldMs: Math.min(BACKGROUND_MS_RANGE.max, Math.max(BACKGROUND_MS_RANGE.min, exec.backgroundMs)) } : {}),
    ...(completionSet
      ? {
          completion: {
            notifyOnExit: exec.notifyOnExit ?? true,
            notifyOnExitEmptySuccess: exec.notifyOnExitEmptySuccess ?? false,
            ...(exec.cleanupMs !== undefined ? { retainMs: exec.cleanupMs } : {}),
          },
        }
      : {}),
  };
}
