import type { LoadedConfig } from "../../config/index.js";

export type CheckStatus = "ok" | "warn" | "fail" | "skip";

/** One line of the doctor's report: what was checked, what was found, and how to fix it. */
export interface DoctorCheck {
  id: string;
  status: CheckStatus;
  message: string;
  /** What to do about a warn/fail (a command or the key to set). */
  fix?: string;
  /** What `--fix` changed for this check. */
  fixed?: string;
}

export interface DoctorContext {
  env: NodeJS.ProcessEnv;
  stateDir: string;
  /** Apply the safe repairs (permissions, stale lock/pid files, a missing state dir). */
  fix: boolean;
  /** The config, when it loaded; checks that need it are skipped otherwise. */
  loaded?: LoadedConfig;
  /** Milliseconds each network check may take. */
  timeoutMs: number;
}
