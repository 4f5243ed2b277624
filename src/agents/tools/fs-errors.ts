import fs from "node:fs";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError } from "../tool-result.js";
import type { ToolResult } from "../types.js";

/** Turns a file-system failure into an error the model can act on. */
export function fileSystemError(error: unknown, relativePath: string): ToolResult {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return toolError(TOOL_ERRORS.fileNotFound(relativePath));
    case "EISDIR":
      return toolError(TOOL_ERRORS.isADirectory(relativePath));
    case "ENOTDIR":
      return toolError(TOOL_ERRORS.notADirectory(relativePath));
    case "ENOTREGULAR":
      return toolError(TOOL_ERRORS.notARegularFile(relativePath));
    case "EACCES":
    case "EPERM":
      return toolError(TOOL_ERRORS.permissionDenied(relativePath));
    default:
      return toolError(TOOL_ERRORS.fileError(relativePath, (error as Error)?.message ?? String(error)));
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
