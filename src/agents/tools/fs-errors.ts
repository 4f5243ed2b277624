import fs from "node:fs";
import { toolError } from "../tool-result.js";
import type { ToolResult } from "../types.js";

/** Turns a file-system failure into an error the model can act on. */
export function fileSystemError(error: unknown, relativePath: string): ToolResult {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return toolError("FILE_NOT_FOUND", `"${relativePath}" does not exist.`, "Check the path; list the directory with exec (ls) if unsure.");
    case "EISDIR":
      return toolError("IS_A_DIRECTORY", `"${relativePath}" is a directory, not a file.`, "List directories with exec (ls); pass a file path here.");
    case "ENOTDIR":
      return toolError("NOT_A_DIRECTORY", `A parent of "${relativePath}" is a file, not a directory.`, "Check the path with exec (ls).");
    case "ENOTREGULAR":
      return toolError(
        "NOT_A_REGULAR_FILE",
        `"${relativePath}" is not a regular file (a pipe, socket or device).`,
        "Only regular files can be read or changed with this tool; inspect it with exec (ls -l) if needed.",
      );
    case "EACCES":
    case "EPERM":
      return toolError("PERMISSION_DENIED", `Permission denied for "${relativePath}".`, "Choose another file or ask the user to fix the permissions.");
    default:
      return toolError("FILE_ERROR", `"${relativePath}": ${(error as Error)?.message ?? String(error)}`);
  }
}

/** Text files with NUL bytes are almost certainly binary; decoding them would only feed noise. */
export function looksBinary(buffer: Buffer): boolean {
  return buffer.includes(0);
}

/**
 * Reads a regular file whole. Anything else is refused before opening it: reading a FIFO or a
 * device would block the gateway's event loop, or never end.
 */
export function readRegularFile(absolute: string): Buffer {
  const stats = fs.statSync(absolute);
  if (stats.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  if (!stats.isFile()) throw Object.assign(new Error("not a regular file"), { code: "ENOTREGULAR" });
  return fs.readFileSync(absolute);
}

/** Throws unless `absolute` is missing or a regular file: writing to a FIFO would block. */
export function assertWritableFileTarget(absolute: string): void {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(absolute);
  } catch {
    return;
  }
  if (stats.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  if (!stats.isFile()) throw Object.assign(new Error("not a regular file"), { code: "ENOTREGULAR" });
}
