// Installs one npm package into node_modules/.cache/<cacheName>/<version>/ with the ordinary npm
// client (from npm's cache when it is there, so a machine that fetched it once works offline), for
// tools the tests run but package.json must not list: their bins or their platform-only optional
// dependencies would break `npm test` or `npm ci` (see build/node24.mjs and build/acpx.mjs).
// Installed once into a temporary folder and renamed into place, so concurrent callers never see
// half an install.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The folder of `pkg@version` (node_modules/<pkg> under the cache), installed on first use.
 * `works(dir)` says whether an install is complete and usable.
 */
export function ensureCachedPackage({ cacheName, pkg, version, works }) {
  const home = path.join(REPO, "node_modules", ".cache", cacheName, version);
  const dir = path.join(home, "node_modules", pkg);
  if (works(dir)) return dir;
  const staging = `${home}.staging-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    execFileSync(
      "npm",
      ["install", "--prefix", staging, "--prefer-offline", "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", `${pkg}@${version}`],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    const detail = String(err.stderr ?? err.message).trim();
    throw new Error(`\`npm install ${pkg}@${version}\` failed (needs the npm registry or a copy in npm's cache): ${detail}`);
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
  if (!works(dir)) throw new Error(`${pkg}@${version} is not usable after installing it into ${home}`);
  return dir;
}

/** Runs `main()` and prints its folder when the file is run as a script; exit 1 with the reason otherwise. */
export function printWhenRun(metaUrl, main) {
  if (process.argv[1] !== fileURLToPath(metaUrl)) return;
  try {
    process.stdout.write(`${main()}\n`);
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
