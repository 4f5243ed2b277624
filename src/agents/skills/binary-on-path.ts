import fs from "node:fs";
import path from "node:path";

function isExecutableFile(filePath: string, platform: string): boolean {
  try {
    if (!fs.statSync(filePath).isFile()) return false;
    // Windows has no execute bit; there the extension (PATHEXT) is what makes a program.
    if (platform !== "win32") fs.accessSync(filePath, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A memoized "is `name` an executable on PATH?" check. It looks at the file system only, never
 * spawns `which`: gating runs whenever skills are (re)loaded and must stay cheap.
 */
export function createBinaryLookup(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): (name: string) => boolean {
  const pathValue = env.PATH ?? env.Path ?? "";
  const dirs = pathValue.split(platform === "win32" ? ";" : ":").filter(Boolean);
  const extensions = platform === "win32" ? ["", ...(env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)] : [""];
  const cache = new Map<string, boolean>();
  return (name: string) => {
    const known = cache.get(name);
    if (known !== undefined) return known;
    const candidates = name.includes("/") || name.includes("\\") ? [path.resolve(name)] : dirs.map((dir) => path.join(dir, name));
    const found = candidates.some((base) => extensions.some((ext) => isExecutableFile(base + ext, platform)));
    cache.set(name, found);
    return found;
  };
}
