import path from "node:path";
import type { PermissionOption, RequestPermissionRequest } from "@agentclientprotocol/sdk";

/**
 * Auto-approved without asking: a request the agent marks as a read whose every named path is
 * absolute and inside the cwd. The kind is the agent's claim, so the paths decide: a "read"
 * that names no path, or any path outside the cwd, is asked like everything else.
 */
export function isReadUnderCwd(request: RequestPermissionRequest, cwd: string): boolean {
  const call = request.toolCall;
  if (call.kind !== "read") return false;
  const paths = [...(call.locations ?? []).map((l) => l.path), ...pathsIn(call.rawInput)];
  if (paths.length === 0) return false;
  const root = path.resolve(cwd);
  return paths.every((p) => path.isAbsolute(p) && (path.resolve(p) === root || path.resolve(p).startsWith(`${root}${path.sep}`)));
}

function pathsIn(rawInput: unknown): string[] {
  if (!rawInput || typeof rawInput !== "object") return [];
  const record = rawInput as Record<string, unknown>;
  return ["path", "file_path", "filePath"].map((k) => record[k]).filter((v): v is string => typeof v === "string");
}

/** Options are chosen by their standard kind: agents name their option ids differently. */
export function optionOfKind(options: PermissionOption[], kinds: PermissionOption["kind"][]): PermissionOption | undefined {
  for (const kind of kinds) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found;
  }
  return undefined;
}
