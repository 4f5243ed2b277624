import fs from "node:fs";
import path from "node:path";
import { RequestError, type ReadTextFileRequest, type ReadTextFileResponse, type WriteTextFileRequest } from "@agentclientprotocol/sdk";
import { resolveWorkspacePath } from "../../agents/tools/workspace-path.js";

/** The largest file an agent may read or write through the client (the file tools' order of size). */
export const MAX_CLIENT_FILE_BYTES = 5 * 1024 * 1024;

/**
 * `fs/read_text_file` and `fs/write_text_file` as this gateway serves them: confined to the
 * session's cwd exactly like the agent file tools (real paths, symlinks followed), refused with
 * a message naming the rule otherwise.
 */
export function readTextFile(cwd: string, params: ReadTextFileRequest): ReadTextFileResponse {
  const file = confine(cwd, params.path);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    throw RequestError.resourceNotFound(`${params.path} (${(err as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
  if (!stat.isFile()) throw RequestError.invalidParams(undefined, `${params.path} is not a file`);
  if (stat.size > MAX_CLIENT_FILE_BYTES) throw RequestError.invalidParams(undefined, `${params.path} is ${stat.size} bytes; at most ${MAX_CLIENT_FILE_BYTES} are served`);
  let content = fs.readFileSync(file, "utf8");
  if (params.line != null || params.limit != null) {
    const lines = content.split("\n");
    const start = Math.max(0, (params.line ?? 1) - 1);
    content = lines.slice(start, params.limit != null ? start + params.limit : undefined).join("\n");
  }
  return { content };
}

export function writeTextFile(cwd: string, params: WriteTextFileRequest): void {
  const file = confine(cwd, params.path);
  if (Buffer.byteLength(params.content, "utf8") > MAX_CLIENT_FILE_BYTES) throw RequestError.invalidParams(undefined, `the content is over ${MAX_CLIENT_FILE_BYTES} bytes`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, params.content, "utf8");
}

function confine(cwd: string, requested: string): string {
  const resolved = resolveWorkspacePath(cwd, requested);
  if (resolved.ok) return resolved.absolute;
  const text = resolved.result.content[0];
  const body = text && text.type === "text" ? (JSON.parse(text.text) as { message: string }) : { message: "refused" };
  throw RequestError.invalidParams(undefined, `${body.message} Only files inside the session's working directory ${cwd} are served.`);
}
