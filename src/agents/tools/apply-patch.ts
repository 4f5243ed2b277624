import fs from "node:fs";
import path from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { TOOL_ERRORS } from "../tool-errors.js";
import { toolError, toolText } from "../tool-result.js";
import type { AgentTool, ToolResult } from "../types.js";
import { assertWritableFileTarget, fileSystemError, looksBinary, readRegularFile } from "./fs-errors.js";
import { applyHunks } from "./patch-hunks.js";
import { parsePatch, PatchParseError, type PatchOperation } from "./patch-parser.js";
import { resolveWorkspacePath } from "./workspace-path.js";

const ApplyPatchParameters = Type.Object({
  input: Type.String({
    description:
      'The whole patch: "*** Begin Patch", then sections "*** Add File: p" (+ lines), "*** Delete File: p", ' +
      '"*** Update File: p" (optional "*** Move to: q"; hunks "@@ context", lines " ", "-", "+"), then "*** End Patch".',
  }),
});
export type ApplyPatchArgs = Static<typeof ApplyPatchParameters>;

/** A file's content as the patch leaves it; null means the file is gone. */
type PlannedContent = string | null;

interface PlannedFile {
  absolute: string;
  relative: string;
  before: PlannedContent;
  after: PlannedContent;
}

export function createApplyPatchTool(): AgentTool<typeof ApplyPatchParameters> {
  return {
    name: "apply_patch",
    description:
      "Apply a multi-file patch (add, delete, update, move files) all at once: if any hunk fails to match, nothing " +
      "is changed. Use for several edits in one or more files. Do not use for one small change: use edit; " +
      "for a brand-new single file, write is simpler.",
    parameters: ApplyPatchParameters,
    async execute(args, ctx) {
      let operations: PatchOperation[];
      try {
        operations = parsePatch(typeof args.input === "string" ? args.input : "");
      } catch (error) {
        if (!(error instanceof PatchParseError)) throw error;
        return toolError(TOOL_ERRORS.patchMalformed(error.message));
      }

      const plan = new Map<string, PlannedFile>();
      const summary: string[] = [];
      try {
        for (const operation of operations) {
          const failure = planOperation(operation, ctx.workspaceDir, plan, summary);
          if (failure) return failure;
        }
      } catch (error) {
        return fileSystemError(error, (error as { relativePath?: string }).relativePath ?? "a file in the patch");
      }

      const commitFailure = commit([...plan.values()], ctx.workspaceDir);
      if (commitFailure) return commitFailure;
      return toolText(`Applied patch:\n${summary.join("\n")}`, {
        files: summary,
      });
    },
  };
}

/** Checks one operation against the files (and earlier operations) and records its outcome. */
function planOperation(operation: PatchOperation, workspaceDir: string, plan: Map<string, PlannedFile>, summary: string[]): ToolResult | undefined {
  const source = resolveWorkspacePath(workspaceDir, operation.path);
  if (!source.ok) return source.result;
  const entry = plannedFile(plan, source.absolute, source.relative);

  if (operation.kind === "add") {
    if (entry.after !== null) {
      return toolError(TOOL_ERRORS.patchAddExisting(source.relative));
    }
    entry.after = operation.contents;
    summary.push(`A ${source.relative}`);
    return undefined;
  }

  if (entry.after === null) {
    const section = operation.kind === "delete" ? "Delete File" : "Update File";
    return toolError(TOOL_ERRORS.patchFileMissing(section, source.relative));
  }

  if (operation.kind === "delete") {
    entry.after = null;
    summary.push(`D ${source.relative}`);
    return undefined;
  }

  const applied = applyHunks(entry.after, operation.hunks);
  if (!applied.ok) {
    return toolError(TOOL_ERRORS.patchHunkMismatch(source.relative, applied.hunkNumber, applied.patchLine, applied.reason));
  }

  if (operation.moveTo === undefined) {
    entry.after = applied.content;
    summary.push(`M ${source.relative}`);
    return undefined;
  }
  const destination = resolveWorkspacePath(workspaceDir, operation.moveTo);
  if (!destination.ok) return destination.result;
  if (destination.absolute === source.absolute) {
    entry.after = applied.content;
    summary.push(`M ${source.relative}`);
    return undefined;
  }
  const target = plannedFile(plan, destination.absolute, destination.relative);
  if (target.after !== null) {
    return toolError(TOOL_ERRORS.patchMoveOntoExisting(destination.relative));
  }
  entry.after = null;
  target.after = applied.content;
  summary.push(`R ${source.relative} -> ${destination.relative}`);
  return undefined;
}

function plannedFile(plan: Map<string, PlannedFile>, absolute: string, relative: string): PlannedFile {
  let entry = plan.get(absolute);
  if (!entry) {
    const before = readCurrent(absolute, relative);
    entry = { absolute, relative, before, after: before };
    plan.set(absolute, entry);
  }
  return entry;
}

function readCurrent(absolute: string, relative: string): PlannedContent {
  try {
    const buffer = readRegularFile(absolute);
    if (looksBinary(buffer)) {
      throw Object.assign(new Error("binary file; apply_patch changes text files only"), { code: "EBINARY", relativePath: relative });
    }
    return buffer.toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw Object.assign(error as object, { relativePath: relative });
  }
}

/**
 * Writes the planned files. Every hunk was checked already, so only the file system can fail
 * here (disk full, permissions); then the files written so far are put back as they were.
 */
function commit(files: PlannedFile[], workspaceDir: string): ToolResult | undefined {
  const done: PlannedFile[] = [];
  for (const file of files) {
    if (file.before === file.after) continue;
    try {
      writePlanned(file.absolute, file.after, workspaceDir);
      done.push(file);
    } catch (error) {
      for (const written of done.reverse()) {
        try {
          writePlanned(written.absolute, written.before, workspaceDir);
        } catch {
          // Best effort: the error below tells the model the state may need checking.
        }
      }
      const failure = fileSystemError(error, file.relative);
      const text = failure.content[0]?.type === "text" ? failure.content[0].text : "";
      return toolError(TOOL_ERRORS.patchWriteFailed(file.relative, text));
    }
  }
  return undefined;
}

function writePlanned(absolute: string, content: PlannedContent, workspaceDir: string): void {
  if (content === null) {
    fs.rmSync(absolute, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  // The plan was checked against the workspace; check again now that directories exist, in
  // case a symlink appeared meanwhile.
  const again = resolveWorkspacePath(workspaceDir, absolute);
  if (!again.ok || again.absolute !== absolute) {
    throw Object.assign(new Error("the path now leads outside the workspace"), { code: "EOUTSIDE" });
  }
  assertWritableFileTarget(absolute);
  fs.writeFileSync(absolute, content, "utf8");
}
