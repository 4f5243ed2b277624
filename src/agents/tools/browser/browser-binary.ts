import fs from "node:fs";
import path from "node:path";

/**
 * Where Linux and macOS installs keep Chromium-family browsers, in OpenClaw's order of preference:
 * Chrome, Brave, Edge, Chromium, then Chrome Canary.
 */
const CANDIDATES_LINUX = [
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/opt/google/chrome/chrome",
  "/usr/bin/brave-browser",
  "/opt/brave.com/brave/brave",
  "/usr/bin/microsoft-edge",
  "/usr/bin/microsoft-edge-stable",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/snap/bin/chromium",
  "/usr/lib/chromium/chromium",
  "/usr/lib/chromium-browser/chromium-browser",
];
const CANDIDATES_MAC = [
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
  "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
];

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The binary the browser launches: `browser.executablePath` when set (and executable), else the first usual one found. */
export function findChromiumBinary(
  configured: string | undefined,
  platform: NodeJS.Platform = process.platform,
  home = process.env.HOME ?? "",
): { path: string } | { problem: string } {
  if (configured) {
    return isExecutableFile(configured) ? { path: configured } : { problem: `browser.executablePath ${configured} is not an executable file` };
  }
  const candidates = platform === "darwin" ? [...CANDIDATES_MAC, ...CANDIDATES_MAC.map((c) => path.join(home, c))] : platform === "linux" ? CANDIDATES_LINUX : [];
  const found = candidates.find(isExecutableFile);
  return found ? { path: found } : { problem: "no Chrome, Brave, Edge or Chromium binary was found; install one or set browser.executablePath" };
}
