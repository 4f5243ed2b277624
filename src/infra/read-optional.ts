import fs from "node:fs";

/** The file's text, or undefined when it does not exist yet; other errors (permissions, EIO) throw. */
export function readTextIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
