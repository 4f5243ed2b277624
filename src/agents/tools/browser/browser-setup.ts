import path from "node:path";
import type { OpenClawConfig } from "../../../config/index.js";
import { findChromiumBinary } from "./browser-binary.js";
import { type BrowserSsrfPolicy, browserSsrfPolicy } from "./browser-ssrf.js";

/** How the gateway launches its one managed browser, from `browser.*`. */
export interface BrowserSettings {
  executablePath: string;
  /** True, false, or undefined: headless when the host has no display (OpenClaw's Linux fallback). */
  headless: boolean | undefined;
  noSandbox: boolean;
  ssrfPolicy: BrowserSsrfPolicy;
}

/** The browser's settings, or why the browser tool is not offered. */
export type BrowserSetup = { settings: BrowserSettings; problem?: undefined } | { settings?: undefined; problem: string };

/** Offered when `browser.enabled` is not false (OpenClaw's default is on) and a Chromium binary is there. */
export function browserSetup(config: OpenClawConfig): BrowserSetup {
  const browser = config.browser;
  if (browser?.enabled === false) return { problem: "browser.enabled is false" };
  const binary = findChromiumBinary(browser?.executablePath);
  if ("problem" in binary) return { problem: binary.problem };
  return {
    settings: {
      executablePath: binary.path,
      headless: browser?.headless,
      noSandbox: browser?.noSandbox === true,
      ssrfPolicy: browserSsrfPolicy(browser?.ssrfPolicy),
    },
  };
}

/** The managed profile's folder under the state dir: its user-data dir and Chromium's XDG config and cache dirs. */
export function browserProfileDir(stateDir: string): string {
  return path.join(stateDir, "browser", "openclaw");
}

/** The managed profile's own user-data dir: never the user's browser profile. */
export function browserUserDataDir(stateDir: string): string {
  return path.join(browserProfileDir(stateDir), "user-data");
}
