#!/usr/bin/env node
// Builds dist/ (tsc, then rolldown bundles dist/bin/openclaw.js and its CommonJS twin openclaw.cjs (the bin), then vite builds the Control UI
// into dist/control-ui) and prints one line.
//
//   node build/build.mjs             always rebuild
//   node build/build.mjs --if-stale  rebuild only when an input changed since the last build
//
// "Changed" is decided by a SHA-256 over the path and content of every input file (sources,
// extensions, build scripts and configs, the lockfile; see build-stamp.mjs), stored in
// dist/.build-stamp once a build has succeeded. Contents, not mtimes: a fresh clone or a
// `git checkout` gives every file a new mtime, and a checkout back to older sources must rebuild
// even when their mtimes look older than dist/.
// The tools' output (rolldown's chunk table, vite's) is shown only when a step fails.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inputHash, isUpToDate, writeStamp } from "./build-stamp.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");
const entry = path.join(dist, "bin", "openclaw.js");

function run(label, command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.status === 0) return;
  process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
  process.stderr.write(`build: ${label} failed${result.error ? ` (${result.error.message})` : ` with exit code ${result.status}`}\n`);
  process.exit(1);
}

function bin(name) {
  return path.join(root, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);
}

const ifStale = process.argv.includes("--if-stale");
const hash = inputHash(root);
if (ifStale && isUpToDate(root, hash)) {
  process.stdout.write("build: dist/ is up to date with the sources\n");
  process.exit(0);
}

const started = performance.now();
fs.rmSync(dist, { recursive: true, force: true });
run("tsc", bin("tsc"), ["-p", "tsconfig.json"]);
run("rolldown", bin("rolldown"), ["-c", "rolldown.config.mjs", "--logLevel", "warn"]);
run("vite (Control UI)", bin("vite"), ["build", "--config", "ui/vite.config.mjs", "--logLevel", "warn"]);
run("compress-ui", process.execPath, ["build/compress-ui.mjs"]);
writeStamp(root, hash);
const bundleBytes = fs.readdirSync(path.dirname(entry)).reduce((sum, file) => sum + fs.statSync(path.join(path.dirname(entry), file)).size, 0);
process.stdout.write(`build: dist/ rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s (bundle ${(bundleBytes / 1024 / 1024).toFixed(1)} MiB in dist/bin)\n`);
