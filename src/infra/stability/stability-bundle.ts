import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../atomic-file.js";
import { ensurePrivateDir, gatewayStatePaths } from "../paths.js";
import { safeCode, type StabilitySnapshot } from "./stability-event.js";
import type { StabilityRecorder } from "./stability-recorder.js";
import { MAX_STABILITY_LIMIT, stabilitySnapshot } from "./stability-snapshot.js";

/** Bundles kept in `<stateDir>/logs/stability/`; the oldest go first. */
export const STABILITY_BUNDLES_KEPT = 20;
/** A bundle file larger than this is refused on read (a bundle of 1,000 events is far smaller). */
const MAX_BUNDLE_BYTES = 5 * 1024 * 1024;
const PREFIX = "openclaw-stability-";
const SUFFIX = ".json";

/** Why a bundle was written: the process died of an uncaught error, its stop passed the deadline, or a (re)start failed. */
export type BundleReason = "gateway.fatal" | "gateway.shutdown_deadline" | "gateway.start_failed";

/** A persisted snapshot, in OpenClaw's bundle shape (version 1). The error keeps its name and code, never its message. */
export interface StabilityBundle {
  version: 1;
  generatedAt: string;
  reason: string;
  process: { pid: number; platform: string; arch: string; node: string; uptimeMs: number };
  host: { hostname: string };
  error?: { name?: string; code?: string };
  snapshot: StabilitySnapshot;
}

export type BundleRead =
  | { status: "found"; path: string; mtimeMs: number; bundle: StabilityBundle }
  | { status: "missing"; dir: string }
  | { status: "failed"; path?: string; error: string };

/**
 * Writes the recorder's last events (up to 1,000) as a bundle when it has any, then deletes the
 * oldest bundles past STABILITY_BUNDLES_KEPT. Synchronous, for a process about to exit. Returns
 * the file written, or undefined (no events, or the write failed: a dying process has no one to
 * tell but its caller).
 */
export function writeStabilityBundle(recorder: StabilityRecorder, stateDir: string, reason: BundleReason, error?: unknown): string | undefined {
  try {
    const snapshot = stabilitySnapshot(recorder, { limit: MAX_STABILITY_LIMIT });
    if (snapshot.count === 0) return undefined;
    const now = new Date();
    const bundle: StabilityBundle = {
      version: 1,
      generatedAt: now.toISOString(),
      reason,
      process: { pid: process.pid, platform: process.platform, arch: process.arch, node: process.versions.node, uptimeMs: Math.round(process.uptime() * 1000) },
      host: { hostname: "<redacted-hostname>" },
      ...errorFields(error),
      snapshot,
    };
    const dir = gatewayStatePaths(stateDir).stabilityDir;
    ensurePrivateDir(dir);
    const file = path.join(dir, `${PREFIX}${now.toISOString().replace(/[:.]/g, "-")}-${process.pid}-${reason}${SUFFIX}`);
    writeFileAtomicSync(file, `${JSON.stringify(bundle, null, 2)}\n`);
    // The bundle just written stays whatever the clock says of the others' times.
    const others = listBundles(dir).filter((bundleFile) => bundleFile.path !== file);
    for (const old of others.slice(STABILITY_BUNDLES_KEPT - 1)) fs.rmSync(old.path, { force: true });
    return file;
  } catch {
    return undefined;
  }
}

function errorFields(error: unknown): Pick<StabilityBundle, "error"> {
  if (!error || typeof error !== "object") return {};
  const name = safeCode((error as { name?: unknown }).name as string | undefined);
  const code = safeCode((error as { code?: unknown }).code as string | undefined);
  return name || code ? { error: { ...(name ? { name } : {}), ...(code ? { code } : {}) } } : {};
}

/** The bundle files in `dir`, newest first. */
function listBundles(dir: string): { path: string; mtimeMs: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return names
    .filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX))
    .map((name) => {
      const file = path.join(dir, name);
      return { path: file, mtimeMs: fs.statSync(file).mtimeMs };
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.path.localeCompare(a.path));
}

/** The newest bundle under `<stateDir>/logs/stability/`. */
export function readLatestStabilityBundle(stateDir: string): BundleRead {
  const dir = gatewayStatePaths(stateDir).stabilityDir;
  try {
    const latest = listBundles(dir)[0];
    return latest ? readStabilityBundle(latest.path) : { status: "missing", dir };
  } catch (err) {
    return { status: "failed", error: (err as Error).message };
  }
}

/** One bundle file, checked for the shape this gateway writes. */
export function readStabilityBundle(file: string): BundleRead {
  try {
    const stat = fs.statSync(file);
    if (stat.size > MAX_BUNDLE_BYTES) return { status: "failed", path: file, error: `${file} is ${stat.size} bytes, over the ${MAX_BUNDLE_BYTES} a stability bundle may be` };
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<StabilityBundle>;
    if (parsed.version !== 1)
      return { status: "failed", path: file, error: `${file} is not a stability bundle this version reads (version ${String(parsed.version)}, expected 1)` };
    if (!parsed.snapshot || !Array.isArray(parsed.snapshot.events) || typeof parsed.reason !== "string" || !parsed.process) {
      return { status: "failed", path: file, error: `${file} is not a stability bundle: it lacks reason, process or snapshot.events` };
    }
    return { status: "found", path: file, mtimeMs: stat.mtimeMs, bundle: parsed as StabilityBundle };
  } catch (err) {
    const why = err instanceof SyntaxError ? "not valid JSON" : (err as Error).message;
    return { status: "failed", path: file, error: `cannot read stability bundle ${file}: ${why}` };
  }
}
