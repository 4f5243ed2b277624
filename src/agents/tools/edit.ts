import fs from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool } from "../types.js";
import { fileSystemError, looksBinary, readRegularFile } from "./fs-errors.js";
import { resolveWorkspacePath } from "./workspace-path.js";

const EditParameters = Type.Object({
  path: Type.String({ description: "File path, relative to the workspace." }),
  oldText: Type.String({ description: "Exact text to replace, including whitespace; must occur exactly once in the file." }),
  newText: Type.String({ description: "Text to put in its place." }),
});
export type EditArgs = Static<typeof EditParameters>;

export function createEditTool(): AgentTool<typeof EditParameters> {
  return {
    name: "edit",
    description:
      "Replace one exact, unique piece of text in an existing file. Use for targeted changes after reading the file. " +
      "Do not use to create files or rewrite them whole: use write. For many changes across files use apply_patch.",
    parameters: EditParameters,
    async execute(args, ctx) {
      const resolved = resolveWorkspacePath(ctx.workspaceDir, args.path);
      if (!resolved.ok) return resolved.result;
      const { absolute, relative } = resolved;
      if (typeof args.oldText !== "string" || args.oldText.length === 0) {
        return toolError(TOOL_ERRORS.editOldTextEmpty());
      }
      if (typeof args.newText !== "string") {
        return toolError(TOOL_ERRORS.editNewTextMissing());
      }

      let content: string;
      try {
        const buffer = readRegularFile(absolute);
        if (looksBinary(buffer)) {
          return toolError(TOOL_ERRORS.editBinaryFile(relative));
        }
        content = buffer.toString("utf8");
      } catch (error) {
        return fileSystemError(error, relative);
      }

      let oldText = args.oldText;
      let newText = args.newText;
      // Models write "\n"; a Windows-style file has "\r\n". Match in the file's own convention.
      if (content.includes("\r\n") && !oldText.includes("\r")) {
        oldText = oldText.replace(/\n/g, "\r\n");
        newText = newText.replace(/\r?\n/g, "\r\n");
      }

      const matches = countOccurrences(content, oldText);
      if (matches === 0) {
        return toolError(TOOL_ERRORS.editNoMatch(relative));
      }
      if (matches > 1) {
        return toolError(TOOL_ERRORS.editAmbiguous(relative, matches));
      }
      if (oldText === newText) {
        return toolError(TOOL_ERRORS.editNoChange());
      }

      const index = content.indexOf(oldText);
      const updated = content.slice(0, index) + newText + content.slice(index + oldText.length);
      try {
        fs.writeFileSync(absolute, updated, "utf8");
      } catch (error) {
        return fileSystemError(error, relative);
      }
      const firstLine = content.slice(0, index).split("\n").length;
      const lastLine = firstLine + Math.max(0, newText.split("\n").length - 1);
      return toolText(`Edited ${relative}: replaced 1 occurrence (now lines ${firstLine}-${lastLine}).`, {
        path: relative,
        firstLine,
        lastLine,
      });
    },
  };
}

/** Overlapping occurrences count too: "aa" in "aaa" names two places, which is ambiguous. */
function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}
