#!/usr/bin/env node
// Node 24 for what this machine's Node cannot run: the Node 24 end-to-end stage of .ci/run and
// the `acpx` client (it needs Node >= 22.13) in test/e2e/acpx-bridge.test.ts.
//
// It comes from the npm registry: `node-linux-<arch>` is the official Node build (binary and
// headers) as an npm package. It cannot be a devDependency: its `node` bin would shadow the
// machine's Node in every npm script. It lives in node_modules/.cache/openclaw-node24/.
//
// `node build/node24.mjs` prints the package's folder (bin/node, include/node): one line on stdout.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { ensureCachedPackage, printWhenRun } from "./cached-npm-package.mjs";

export const NODE24_VERSION = "24.22.3";

/** The folder of the Node 24 package (its binary is `bin/node`), installed on first use. */
export function ensureNode24() {
  const arch = { x64: "x64", arm64: "arm64" }[process.arch];
  if (process.platform !== "linux" || !arch) throw new Error(`node24: no node-linux package for ${process.platform}/${process.arch}`);
  return ensureCachedPackage({ cacheName: "openclaw-node24", pkg: `node-linux-${arch}`, version: NODE24_VERSION, works: runsNode24 });
}

function runsNode24(dir) {
  try {
    return execFileSync(path.join(dir, "bin", "node"), ["--version"], { encoding: "utf8" }).trim() === `v${NODE24_VERSION}`;
  } catch {
    return false;
  }
}

printWhenRun(import.meta.url, ensureNode24);
