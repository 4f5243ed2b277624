import fs from "node:fs";

let cached: string | undefined;

/** The package version, read once from package.json next to dist/. */
export function packageVersion(): string {
  if (cached) return cached;
  try {
    const pkgUrl = new URL("../../package.json", import.meta.url);
    cached = (JSON.parse(fs.readFileSync(pkgUrl, "utf8")) as { version: string }).version;
  } catch {
    cached = "0.0.0";
  }
  return cached;
}
