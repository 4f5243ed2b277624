import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export type OpenOutcome = { opened: true; opener: string } | { opened: false; reason: string };

interface Opener {
  command: string;
  args: (url: string) => string[];
}

/**
 * The platform's way to open a URL in the user's browser: `open` on macOS, `start` (through
 * cmd) on Windows, `xdg-open` elsewhere — the last only with a display to show it on.
 */
function pickOpener(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Opener | { missing: string } {
  if (platform === "darwin") return { command: "open", args: (url) => [url] };
  // `start`'s first quoted argument is a window title; the URL must not be taken for it.
  if (platform === "win32") return { command: "cmd", args: (url) => ["/c", "start", '""', url.replace(/&/g, "^&")] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { missing: "there is no display here (DISPLAY and WAYLAND_DISPLAY are unset)" };
  if (!onPath("xdg-open", env)) return { missing: "xdg-open is not installed here (the xdg-utils package provides it)" };
  return { command: "xdg-open", args: (url) => [url] };
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "").split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, command), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Hands `url` to the platform opener and returns once it has started (it is not waited for: some
 * openers stay until the browser closes). Never throws: the caller prints the URL either way.
 */
export async function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<OpenOutcome> {
  const opener = pickOpener(env, platform);
  if ("missing" in opener) return { opened: false, reason: opener.missing };
  return new Promise((resolve) => {
    const child = spawn(opener.command, opener.args(url), { env, stdio: "ignore", detached: true });
    child.once("error", (err) => resolve({ opened: false, reason: `${opener.command} failed to start: ${err.message}` }));
    child.once("spawn", () => {
      child.unref();
      resolve({ opened: true, opener: opener.command });
    });
  });
}
