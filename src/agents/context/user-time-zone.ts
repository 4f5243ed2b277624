import type { OpenClawConfig } from "../../config/index.js";
import { hostTimeZone } from "../../infra/host-time-zone.js";

/** The user's time zone: `agents.defaults.userTimezone`, else the host's. */
export function userTimeZone(config: OpenClawConfig): string {
  return config.agents.defaults.userTimezone ?? hostTimeZone();
}

/**
 * A configured zone as OpenClaw reads it: unset or `user` is the user's time zone, `local` the
 * host's, anything else the IANA name itself.
 */
export function resolveTimeZone(config: OpenClawConfig, zone: string | undefined): string {
  if (zone === undefined || zone === "user") return userTimeZone(config);
  if (zone === "local") return hostTimeZone();
  return zone;
}
