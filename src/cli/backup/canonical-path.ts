import fs from "node:fs";
import path from "node:path";

/**
 * The path with every symbolic link resolved, for containment checks: of the path itself when it
 * exists, else of its nearest existing ancestor with the rest appended. Two names for one folder
 * (`~/.openclaw` linked to `/data/openclaw`) compare equal this way.
 */
export function canonicalPath(input: string): string {
  const absolute = path.resolve(input);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** Whether `child` is `parent` or inside it (absolute, canonical paths). */
export function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
