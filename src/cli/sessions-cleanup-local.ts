import { loadConfig } from "../config/index.js";
import { runSessionsCleanup, SessionsCleanupRefusal, type SessionsCleanupRequest } from "../gateway/sessions-cleanup.js";
import type { SessionsCleanupResult } from "../gateway/sessions-cleanup-summary.js";
import { StateLockError, withStateDirLock } from "../gateway/state-lock.js";
import { SessionStore } from "../sessions/store/index.js";
import { CliError } from "./output.js";

/**
 * The cleanup with no gateway running: this process opens the state dir's sessions and runs the
 * pass itself, holding the gateway's state-dir lock throughout, so no gateway can start and
 * load the sessions while they change (it refuses until the pass is done). A lock held by a
 * process this command cannot see as a gateway (one starting or stopping, one in a container)
 * is refused: changing the files under it would corrupt what it holds in memory.
 */
export function runCleanupLocally(stateDir: string, request: SessionsCleanupRequest): SessionsCleanupResult {
  const { config } = loadConfig({ stateDir, env: process.env });
  try {
    return withStateDirLock(stateDir, () => {
      const store = new SessionStore(stateDir, { onWarning: (warning) => process.stderr.write(`warning: ${warning}\n`) });
      try {
        return runSessionsCleanup(store, config, request);
      } finally {
        store.close();
      }
    });
  } catch (err) {
    if (err instanceof SessionsCleanupRefusal) throw new CliError(err.message);
    if (err instanceof StateLockError) {
      throw new CliError(
        `${err.message}, but no gateway answers for it: a gateway is starting or stopping, or one runs on it where this command cannot see its process (a container). Try again once it is up or stopped, or run the cleanup through that gateway with --url or --port.`,
      );
    }
    throw err;
  }
}
