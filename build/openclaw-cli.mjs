#!/usr/bin/env node
// The real OpenClaw CLI from npm, for the e2e tests that run its commands against this gateway
// (test/e2e/openclaw-doctor.test.ts). It is not a devDependency: it is large, its `openclaw` bin
// would shadow ours in npm scripts, and it needs Node 24 (build/node24.mjs). It lives in
// node_modules/.cache/openclaw-cli/.
//
// `node build/openclaw-cli.mjs` prints the package's folder (openclaw.mjs inside): one line on stdout.
import fs from "node:fs";
import path from "node:path";
import { ensureCachedPackage, printWhenRun } from "./cached-npm-package.mjs";

export const OPENCLAW_CLI_VERSION = "2026.9.6";

/** The folder of the openclaw package, installed on first use. */
export function ensureOpenclawCli() {
  return ensureCachedPackage({ cacheName: "openclaw-cli", pkg: "openclaw", version: OPENCLAW_CLI_VERSION, works: hasCli });
}

function hasCli(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version === OPENCLAW_CLI_VERSION && fs.existsSync(path.join(dir, "openclaw.mjs"));
  } catch {
    return false;
  }
}

printWhenRun(import.meta.url, ensureOpenclawCli);
