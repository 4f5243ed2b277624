import fs from "node:fs";
import path from "node:path";

/** A symlink chain this long is a loop, or an attack; the kernel gives up at 40 as well. */
const MAX_SYMLINK_HOPS = 40;

/** Whether `candidate` is `root` or inside it (both absolute; compare real paths for containment). */
export function isPathInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

/**
 * realpath for a target that may not exist yet: the deepest existing ancestor is resolved and the
 * missing tail appended. A dangling symlink is followed through its link text, because writing to
 * it would create the file wherever it points. Throws on a loop (ELOOP) and on errors other than
 * a missing entry.
 */
export function realPathAllowingMissing(target: string, hops = 0): string {
  try {
    return fs.realpathSync.native(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  let stats: fs.Stats | undefined;
  try {
    stats = fs.lstatSync(target);
  } catch {
    stats = undefined;
  }
  if (stats?.isSymbolicLink()) {
    if (hops >= MAX_SYMLINK_HOPS) throw Object.assign(new Error("too many symbolic links"), { code: "ELOOP" });
    const linkText = fs.readlinkSync(target);
    return realPathAllowingMissing(path.resolve(path.dirname(target), linkText), hops + 1);
  }
  const parent = path.dirname(target);
  if (parent === target) return target;
  return path.join(realPathAllowingMissing(parent, hops), path.basename(target));
}
