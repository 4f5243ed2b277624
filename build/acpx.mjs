#!/usr/bin/env node
// The real `acpx` ACP client for test/e2e/acpx-bridge.test.ts. It is not a devDependency: its
// dependencies carry platform-only optional packages that a registry mirror may not have, and
// `npm ci` then refuses the lock file. It lives in node_modules/.cache/openclaw-acpx/.
//
// `node build/acpx.mjs` prints the package's folder (dist/cli.js inside): one line on stdout.
import fs from "node:fs";
import path from "node:path";
import { ensureCachedPackage, printWhenRun } from "./cached-npm-package.mjs";

export const ACPX_VERSION = "0.19.1";

/** The folder of the acpx package, installed on first use. */
export function ensureAcpx() {
  return ensureCachedPackage({ cacheName: "openclaw-acpx", pkg: "acpx", version: ACPX_VERSION, works: hasCli });
}

function hasCli(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version === ACPX_VERSION && fs.existsSync(path.join(dir, "dist", "cli.js"));
  } catch {
    return false;
  }
}

printWhenRun(import.meta.url, ensureAcpx);
