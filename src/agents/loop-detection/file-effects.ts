import path from "node:path";
import { normalizeToolName } from "../policy/tool-names.js";
import type { ToolCallBlock, ToolResult } from "../types.js";
import { canonicalJson } from "./canonical-json.js";

/** A `read` call's file and the part of it asked for. */
export interface ReadTarget {
  path: string;
  /** Offset/limit, canonical; paging through a file with new offsets is progress, not a loop. */
  window: string;
}

export function readTarget(call: ToolCallBlock): ReadTarget | undefined {
  if (normalizeToolName(call.name) !== "read") return undefined;
  const file = pathArgument(call.arguments);
  if (!file) return undefined;
  return { path: file, window: canonicalJson({ offset: call.arguments.offset, limit: call.arguments.limit }) };
}

/**
 * Which files this call may have changed: a list of paths, "any" when it cannot be known (a
 * shell command can touch anything), or none. Failed calls changed nothing.
 */
export function changedFiles(call: ToolCallBlock, result: ToolResult): string[] | "any" {
  if (result.isError) return [];
  const name = normalizeToolName(call.name);
  if (name === "write" || name === "edit") {
    const file = pathArgument(call.arguments);
    return file ? [file] : [];
  }
  if (name === "apply_patch") return patchedFiles(call.arguments.input);
  // code_execution runs in xAI's remote sandbox: it changes no file here.
  if (name === "exec") return "any";
  // Input sent to a running process may make it write files; listing and reading output may not.
  if (name === "process") return isObservingProcessAction(call.arguments.action) ? [] : "any";
  return [];
}

/** `process` actions that only look at a running process. */
export function isObservingProcessAction(action: unknown): boolean {
  return action === "list" || action === "poll" || action === "log";
}

// Paths named by the file headers of an apply_patch body (`*** Update File: src/a.ts`, …).
function patchedFiles(input: unknown): string[] {
  if (typeof input !== "string") return [];
  const files: string[] = [];
  for (const line of input.split(/\r?\n/)) {
    const match = /^\*\*\* (?:Add File|Update File|Delete File|Move to):\s*(.+?)\s*$/.exec(line);
    if (match?.[1]) files.push(normalizePath(match[1]));
  }
  return files;
}

function pathArgument(args: Record<string, unknown>): string | undefined {
  const value = args.path ?? args.file_path;
  return typeof value === "string" && value.trim() !== "" ? normalizePath(value) : undefined;
}

// "./src//a.ts" and "src/a.ts" are the same file to the model; compare them as one.
function normalizePath(file: string): string {
  return path.posix.normalize(file.trim().replaceAll("\\", "/"));
}
