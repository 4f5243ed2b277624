#!/usr/bin/env node
// Node 24 for what this machine's Node cannot run: the Node 24 end-to-end stage of .ci/run and
// the `acpx` client (it needs Node >= 22.13) in test/e2e/acpx-bridge.test.ts.
//
// It comes from the npm registry: `node-linux-<arch>` is the official Node build (binary and
// headers) as an npm package, installed with the ordinary npm client (from npm's cache when it is
// there, so a machine that fetched it once works offline). It cannot be a devDependency: its
// `node` bin would shadow the machine's Node in every npm script. It lives in
// node_modules/.cache/openclaw-node24/<version>-<arch>/, installed once into a temporary folder
// and renamed into place, so concurrent callers never see half an install.
//
// `node build/node24.mjs` prints the package's folder (bin/node, include/node): one line on stdout.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const NODE24_VERSION = "24.22.3";
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The folder of the Node 24 package (its binary is `bin/node`), installed on first use. */
export function ensureNode24() {
  const arch = { x64: "x64", arm64: "arm64" }[process.arch];
  if (process.platform !== "linux" || !arch) throw new Error(`node24: no node-linux package for ${process.platform}/${process.arch}`);
  const pkg = `node-linux-${arch}`;
  const home = path.join(REPO, "node_modules", ".cache", "openclaw-node24", `${NODE24_VERSION}-${arch}`);
  const dir = path.join(home, "node_modules", pkg);
  if (works(dir)) return dir;
  const staging = `${home}.staging-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    execFileSync(
      "npm",
      ["install", "--prefix", staging, "--prefer-offline", "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", `${pkg}@${NODE24_VERSION}`],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    const detail = String(err.stderr ?? err.message).trim();
    throw new Error(`node24: \`npm install ${pkg}@${NODE24_VERSION}\` failed (needs the npm registry or a copy in npm's cache): ${detail}`);
  }
  if (works(dir)) {
    // Another caller finished first.
    fs.rmSync(staging, { recursive: true, force: true });
    return dir;
  }
  fs.rmSync(home, { recursive: true, force: true });
  try {
    fs.renameSync(staging, home);
  } catch (err) {
    // Another caller renamed its copy into place first: use that one.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!works(dir)) throw err;
  }
  if (!works(dir)) throw new Error(`node24: ${dir}/bin/node does not run after installing ${pkg}@${NODE24_VERSION}`);
  return dir;
}

function works(dir) {
  try {
    return execFileSync(path.join(dir, "bin", "node"), ["--version"], { encoding: "utf8" }).trim() === `v${NODE24_VERSION}`;
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${ensureNode24()}\n`);
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
