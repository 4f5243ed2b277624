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

/**
 * Why findCommand found nothing, as a clause for the error: a path that does not exist, is a
 * directory or lacks its execute bit says so (the last with its fix); a bare name is not on PATH.
 */
export function whyCommandIsMissing(command: string, cwd: string): string {
  if (!command.includes("/")) return `\`${command}\` is not on PATH`;
  const file = path.resolve(cwd, command);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return `\`${file}\` does not exist`;
  }
  if (!stat.isFile()) return `\`${file}\` is not a file`;
  return `\`${file}\` is not executable: chmod +x it`;
}
