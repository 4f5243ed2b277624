import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** Whether this Node is at least `major.minor`. */
function nodeIsAtLeast(major: number, minor: number): boolean {
  const [ownMajor, ownMinor] = process.versions.node.split(".").map(Number) as [number, number];
  return ownMajor > major || (ownMajor === major && ownMinor >= minor);
}

/**
 * This Node when it is at least `major.minor`, else Node 24 from the npm package that
 * build/node24.mjs installs (the same the Node 24 e2e stage of .ci/run uses). Never a skip: if
 * neither is possible it throws saying why, `needs` naming what needed the newer Node.
 */
export function nodeAtLeast(major: number, minor: number, needs: string): string {
  if (nodeIsAtLeast(major, minor)) return process.execPath;
  try {
    const dir = execFileSync(process.execPath, [path.join(REPO, "build", "node24.mjs")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
    return path.join(dir, "bin", "node");
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(`${needs} needs Node >= ${major}.${minor}; this is ${process.version} and build/node24.mjs could not provide Node 24: ${stderr || (err as Error).message}`);
  }
}
