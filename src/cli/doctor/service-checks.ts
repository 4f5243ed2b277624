import fs from "node:fs";
import { DEFAULT_HOOK_TIMEOUT_MS } from "../../hooks/internal/hook-timeout.js";
import { SHUTDOWN_TIMEOUT_ENV, formatSeconds, shutdownDeadlineMs } from "../../gateway/shutdown-deadline.js";
import { launchdPlistPath, systemdUnitPath } from "../service/service-spec.js";
import { neededStopTimeoutSec, readInstalledStop, SUPERVISOR_EXIT_MARGIN_SEC, type ServiceManager, serviceStopTimeoutSec, stopTimeoutKey } from "../service/stop-timeout.js";
import type { DoctorCheck, DoctorContext } from "./check.js";

/**
 * The installed service (`openclaw gateway install`) lets the gateway reach its shutdown deadline:
 * the stop timeout of its unit (with drop-ins) or plist covers the current config's deadline plus
 * the margin, so the manager does not kill the gateway before it logs what hung.
 */
export function checkServiceStopTimeout(ctx: DoctorContext, platform: NodeJS.Platform = process.platform): DoctorCheck {
  const id = "service";
  const manager: ServiceManager | undefined = platform === "linux" ? "systemd" : platform === "darwin" ? "launchd" : undefined;
  if (!manager) return { id, status: "skip", message: `no gateway service on ${platform} (\`openclaw gateway install\` supports systemd and launchd)` };
  const file = manager === "systemd" ? systemdUnitPath(ctx.env) : launchdPlistPath(ctx.env);
  if (!fs.existsSync(file)) return { id, status: "skip", message: `no gateway service installed (${file})` };
  if (!ctx.loaded) return { id, status: "skip", message: `service ${file}: not checked, the config did not load` };
  const installed = readInstalledStop(manager, file);
  const serviceEnv = installed.shutdownTimeoutEnv === undefined ? {} : { [SHUTDOWN_TIMEOUT_ENV]: installed.shutdownTimeoutEnv };
  let deadlineMs: number;
  try {
    deadlineMs = shutdownDeadlineMs(ctx.loaded.config, serviceEnv);
  } catch (err) {
    return {
      id,
      status: "fail",
      message: `service ${file}: ${(err as Error).message}`,
      fix: `correct ${SHUTDOWN_TIMEOUT_ENV} in ${file}, then \`openclaw gateway install --force\``,
    };
  }
  const key = stopTimeoutKey(manager);
  const stop = `${key}=${Number.isFinite(installed.stopTimeoutSec) ? `${installed.stopTimeoutSec} s` : "infinity"}`;
  if (installed.stopTimeoutSec >= neededStopTimeoutSec(deadlineMs))
    return { id, status: "ok", message: `service ${file}: ${stop} covers the gateway's shutdown deadline (${formatSeconds(deadlineMs)})` };
  const source =
    installed.shutdownTimeoutEnv !== undefined
      ? `${SHUTDOWN_TIMEOUT_ENV}=${installed.shutdownTimeoutEnv}`
      : `hooks.internal.timeoutMs ${ctx.loaded.config.hooks?.internal?.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS}`;
  return {
    id,
    status: "warn",
    message: `service ${file}: ${stop} is shorter than the gateway's shutdown deadline (${formatSeconds(deadlineMs)}, from ${source}) plus the ${SUPERVISOR_EXIT_MARGIN_SEC} s margin; ${manager} kills the gateway before it logs what hung`,
    fix: `\`openclaw gateway install --force\` rewrites the service with ${key}=${serviceStopTimeoutSec(deadlineMs)}, or lower ${installed.shutdownTimeoutEnv !== undefined ? SHUTDOWN_TIMEOUT_ENV : "hooks.internal.timeoutMs"}`,
  };
}
