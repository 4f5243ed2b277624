// The build's inputs and the stamp that says which inputs dist/ was built from (see build.mjs).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const INPUT_DIRS = ["src", "extensions", "ui", "build"];
const INPUT_FILES = ["package.json", "package-lock.json", "tsconfig.json", "rolldown.config.mjs"];
const STAMP = path.join("dist", ".build-stamp");
const ENTRY = path.join("dist", "bin", "openclaw.js");

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

/** SHA-256 over the path and content of every input file under `root`, in a stable order. */
export function inputHash(root) {
  const files = [...INPUT_DIRS.flatMap((dir) => listFiles(path.join(root, dir))), ...INPUT_FILES.map((file) => path.join(root, file))]
    .filter((file) => fs.existsSync(file))
    .map((file) => path.relative(root, file).split(path.sep).join("/"))
    .sort();
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** True when dist/ holds a finished build of exactly these inputs. */
export function isUpToDate(root, hash = inputHash(root)) {
  try {
    return fs.existsSync(path.join(root, ENTRY)) && fs.readFileSync(path.join(root, STAMP), "utf8").trim() === hash;
  } catch {
    return false;
  }
}

/** Written last, after a successful build: an interrupted build leaves no stamp and is redone. */
export function writeStamp(root, hash) {
  fs.writeFileSync(path.join(root, STAMP), `${hash}\n`);
}
