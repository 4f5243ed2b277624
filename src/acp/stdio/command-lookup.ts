import fs from "node:fs";
import path from "node:path";

/**
 * Where `command` would be found when spawned with this PATH, or undefined. Checked before
 * spawning so a missing agent is reported by name with its install hint, not as a bare ENOENT.
 */
export function findCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  if (command.includes("/")) {
    const candidate = path.resolve(cwd, command);
    return isExecutable(candidate) ? candidate : undefined;
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
