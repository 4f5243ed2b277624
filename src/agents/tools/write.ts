import fs from "node:fs";
import path from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { toolText } from "../tool-result.js";
import type { AgentTool } from "../types.js";
import { assertWritableFileTarget, fileSystemError } from "./fs-errors.js";
import { resolveWorkspacePath } from "./workspace-path.js";

const WriteParameters = Type.Object({
  path: Type.String({ description: "File path, relative to the workspace. Missing parent directories are created." }),
  content: Type.String({ description: "The complete new content of the file." }),
});
export type WriteArgs = Static<typeof WriteParameters>;

export function createWriteTool(): AgentTool<typeof WriteParameters> {
  return {
    name: "write",
    description:
      "Create a file, or replace a file's whole content, in the workspace. Use for new files or full rewrites. " +
      "Do not use for small changes to an existing file: use edit (or apply_patch for several changes).",
    parameters: WriteParameters,
    async execute(args, ctx) {
      const resolved = resolveWorkspacePath(ctx.workspaceDir, args.path);
      if (!resolved.ok) return resolved.result;
      const content = typeof args.content === "string" ? args.content : String(args.content ?? "");
      try {
        assertWritableFileTarget(resolved.absolute);
        const existed = fs.existsSync(resolved.absolute);
        fs.mkdirSync(path.dirname(resolved.absolute), { recursive: true });
        // Check again after creating directories: the real path is what gets written.
        const target = resolveWorkspacePath(ctx.workspaceDir, resolved.absolute);
        if (!target.ok) return target.result;
        fs.writeFileSync(target.absolute, content, "utf8");
        const bytes = Buffer.byteLength(content, "utf8");
        return toolText(`${existed ? "Overwrote" : "Created"} ${target.relative} (${bytes} byte${bytes === 1 ? "" : "s"} written).`, {
          path: target.relative,
          bytes,
          created: !existed,
        });
      } catch (error) {
        return fileSystemError(error, resolved.relative);
      }
    },
  };
}
