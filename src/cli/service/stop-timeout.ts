import fs from "node:fs";
import path from "node:path";
import { SHUTDOWN_TIMEOUT_ENV } from "../../gateway/shutdown-deadline.js";

/** Seconds the service manager leaves the gateway past its own shutdown deadline (OpenClaw's supervisor exit margin). */
export const SUPERVISOR_EXIT_MARGIN_SEC = 5;
/** The smallest stop timeout a service file gets. */
export const MIN_SERVICE_STOP_TIMEOUT_SEC = 30;
/** systemd's DefaultTimeoutStopSec: the stop timeout of a unit that sets none. */
const SYSTEMD_DEFAULT_STOP_SEC = 90;
/** launchd's ExitTimeOut when the plist sets none. */
const LAUNCHD_DEFAULT_EXIT_TIMEOUT_SEC = 20;

export type ServiceManager = "systemd" | "launchd";

/** The stop timeout the gateway needs: its shutdown deadline plus the margin, in whole seconds. */
export function neededStopTimeoutSec(deadlineMs: number): number {
  return Math.ceil(deadlineMs / 1000) + SUPERVISOR_EXIT_MARGIN_SEC;
}

/** The stop timeout a service file is written with: what the deadline needs, at least 30 s. */
export function serviceStopTimeoutSec(deadlineMs: number): number {
  return Math.max(MIN_SERVICE_STOP_TIMEOUT_SEC, neededStopTimeoutSec(deadlineMs));
}

/** The setting's name in the manager's file, for messages. */
export function stopTimeoutKey(manager: ServiceManager): string {
  return manager === "systemd" ? "TimeoutStopSec" : "ExitTimeOut";
}

/** What an installed service gives the gateway: its stop timeout and its `OPENCLAW_SHUTDOWN_TIMEOUT_MS`. */
export interface InstalledStop {
  stopTimeoutSec: number;
  shutdownTimeoutEnv?: string;
}

const SPAN_UNITS: Record<string, number> = {
  ms: 0.001,
  msec: 0.001,
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hour: 3600,
  hours: 3600,
};

/** A systemd time span ("30", "45s", "2min 5s", "infinity") in seconds; undefined when unreadable. */
function systemdSpanSec(value: string): number | undefined {
  const text = value.trim().toLowerCase();
  if (text === "infinity") return Number.POSITIVE_INFINITY;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]*)\s*/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text.replace(/^\s+/, "")) return undefined;
  let sec = 0;
  for (const [, amount, unit] of parts) {
    const factor = unit ? SPAN_UNITS[unit] : 1;
    if (factor === undefined) return undefined;
    sec += Number(amount) * factor;
  }
  return sec;
}

/** The unit file then its drop-ins (`<unit>.d/*.conf`, in name order): the order systemd reads them in. */
function systemdFiles(unitFile: string): string[] {
  const dropInDir = `${unitFile}.d`;
  let dropIns: string[] = [];
  try {
    dropIns = fs
      .readdirSync(dropInDir)
      .filter((name) => name.endsWith(".conf"))
      .sort()
      .map((name) => path.join(dropInDir, name));
  } catch {
    // no drop-ins
  }
  return [unitFile, ...dropIns];
}

function readSystemd(unitFile: string): InstalledStop {
  let stopTimeoutSec = SYSTEMD_DEFAULT_STOP_SEC;
  let shutdownTimeoutEnv: string | undefined;
  for (const file of systemdFiles(unitFile)) {
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const setting = /^\s*(TimeoutStopSec|TimeoutSec|Environment)\s*=(.*)$/.exec(line);
      if (!setting) continue;
      const [, key, value = ""] = setting;
      if (key === "Environment") {
        const env = new RegExp(`(?:^|\\s)"?${SHUTDOWN_TIMEOUT_ENV}=([^"\\s]*)`).exec(value);
        if (env) shutdownTimeoutEnv = env[1];
      } else if (value.trim() === "") stopTimeoutSec = SYSTEMD_DEFAULT_STOP_SEC;
      else stopTimeoutSec = systemdSpanSec(value) ?? stopTimeoutSec;
    }
  }
  return { stopTimeoutSec, shutdownTimeoutEnv };
}

function readLaunchd(plistFile: string): InstalledStop {
  const text = fs.readFileSync(plistFile, "utf8");
  const exit = /<key>ExitTimeOut<\/key>\s*<integer>(\d+)<\/integer>/.exec(text);
  const env = new RegExp(`<key>${SHUTDOWN_TIMEOUT_ENV}</key>\\s*<string>([^<]*)</string>`).exec(text);
  return { stopTimeoutSec: exit ? Number(exit[1]) : LAUNCHD_DEFAULT_EXIT_TIMEOUT_SEC, shutdownTimeoutEnv: env?.[1] };
}

/** The stop timeout and shutdown variable an installed service file (with its systemd drop-ins) gives the gateway. */
export function readInstalledStop(manager: ServiceManager, file: string): InstalledStop {
  return manager === "systemd" ? readSystemd(file) : readLaunchd(file);
}
