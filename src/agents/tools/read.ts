import fs from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, ToolResult } from "../types.js";
import { fileSystemError, looksBinary, readRegularFile } from "./fs-errors.js";
import { safeCut } from "./text-cut.js";
import { resolveWorkspacePath } from "./workspace-path.js";

export const READ_DEFAULT_LINE_LIMIT = 2_000;
/** One read answer stays under this many characters, whatever the line limit. */
export const READ_MAX_OUTPUT_CHARS = 50_000;
export const READ_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Larger files are better searched (rg) or sliced (sed -n) with exec than loaded whole. */
export const READ_MAX_FILE_BYTES = 20 * 1024 * 1024;

const ReadParameters = Type.Object({
  path: Type.String({ description: "File path, relative to the workspace." }),
  offset: Type.Optional(Type.Integer({ description: "First line to read, 1-based (default 1).", minimum: 1 })),
  limit: Type.Optional(Type.Integer({ description: "Maximum number of lines (default 2000).", minimum: 1 })),
});
export type ReadArgs = Static<typeof ReadParameters>;

export function createReadTool(): AgentTool<typeof ReadParameters> {
  return {
    name: "read",
    description:
      "Read a text file from the workspace (optionally a line range), or view an image (png, jpg, gif, webp). " +
      "Use before editing a file. Do not use to list directories: use exec with ls. Do not use for web pages: use web_fetch.",
    parameters: ReadParameters,
    async execute(args, ctx) {
      const resolved = resolveWorkspacePath(ctx.workspaceDir, args.path);
      if (!resolved.ok) return resolved.result;
      const { absolute, relative } = resolved;

      let buffer: Buffer;
      try {
        const stats = fs.statSync(absolute);
        if (stats.isFile() && stats.size > READ_MAX_FILE_BYTES) {
          return toolError(TOOL_ERRORS.fileTooLarge(relative, formatBytes(stats.size), formatBytes(READ_MAX_FILE_BYTES)));
        }
        buffer = readRegularFile(absolute);
      } catch (error) {
        return fileSystemError(error, relative);
      }

      const mimeType = sniffImageMimeType(buffer);
      if (mimeType) return imageResult(buffer, mimeType, relative);
      if (looksBinary(buffer)) {
        return toolError(TOOL_ERRORS.readBinaryFile(relative));
      }
      return textSlice(buffer.toString("utf8"), relative, args.offset, args.limit);
    },
  };
}

function textSlice(content: string, relative: string, offset: number | undefined, limit: number | undefined): ToolResult {
  if (content.length === 0) return toolText("(the file is empty)", { path: relative, totalLines: 0 });

  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop(); // the final newline ends the last line; it does not start another
  const totalLines = lines.length;
  const startLine = Math.max(1, Math.floor(offset ?? 1));
  if (startLine > totalLines) {
    return toolError(TOOL_ERRORS.offsetOutOfRange(startLine, relative, totalLines));
  }
  const lineLimit = Math.max(1, Math.floor(limit ?? READ_DEFAULT_LINE_LIMIT));

  const shown: string[] = [];
  let chars = 0;
  let lineCut = false;
  for (let index = startLine - 1; index < totalLines && shown.length < lineLimit; index++) {
    const line = lines[index] ?? "";
    if (chars + line.length + 1 > READ_MAX_OUTPUT_CHARS) {
      // Always show at least part of the first line, or a huge single line could never be read.
      if (shown.length === 0) {
        shown.push(`${line.slice(0, safeCut(line, READ_MAX_OUTPUT_CHARS))} [… line cut at ${READ_MAX_OUTPUT_CHARS} chars]`);
        lineCut = true;
      }
      break;
    }
    shown.push(line);
    chars += line.length + 1;
  }

  const endLine = startLine + shown.length - 1;
  const whole = startLine === 1 && endLine === totalLines && !lineCut;
  let text = shown.join("\n");
  if (!whole) {
    text += `\n\n[Lines ${startLine}-${endLine} of ${totalLines}.${endLine < totalLines ? ` Use offset=${endLine + 1} to continue.` : ""}]`;
  }
  return toolText(text, { path: relative, totalLines, startLine, endLine, truncated: !whole });
}

function imageResult(buffer: Buffer, mimeType: string, relative: string): ToolResult {
  if (buffer.length > READ_MAX_IMAGE_BYTES) {
    return toolError(TOOL_ERRORS.imageTooLarge(relative, formatBytes(buffer.length), formatBytes(READ_MAX_IMAGE_BYTES)));
  }
  return {
    content: [
      { type: "text", text: `Image "${relative}" (${mimeType}, ${formatBytes(buffer.length)}):` },
      { type: "image", data: buffer.toString("base64"), mimeType },
    ],
    details: { path: relative, mimeType, bytes: buffer.length },
  };
}

/** By content, not by name: a .png that is really text is read as text, and the reverse. */
export function sniffImageMimeType(buffer: Buffer): string | undefined {
  if (buffer.length >= 8 && buffer.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return "image/jpeg";
  const ascii = buffer.subarray(0, 12).toString("latin1");
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "image/gif";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
