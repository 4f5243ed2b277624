import fs from "node:fs";
import path from "node:path";
import { resolveWorkspacePath } from "../tools/workspace-path.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import type { SpawnRefusal } from "./spawn-checks.js";

/** What `sessions_spawn` may carry into a child's workspace; the caps keep one spawn from filling the disk. */
export const MAX_ATTACHMENTS = 50;
export const MAX_ATTACHMENT_BYTES = 1024 * 1024;
export const MAX_ATTACHMENTS_TOTAL_BYTES = 5 * 1024 * 1024;

export interface SpawnAttachment {
  name: string;
  content: string;
  encoding?: "utf8" | "base64";
  mimeType?: string;
}

export interface DecodedAttachment {
  name: string;
  data: Buffer;
  mimeType?: string;
}

export interface WrittenAttachment {
  /** Relative to the child's workspace. */
  path: string;
  bytes: number;
  mimeType?: string;
}

const PLAIN_NAME = /^[^/\\\0]{1,255}$/;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Decodes and checks every attachment before anything is written; the first problem is reported. */
export function decodeAttachments(list: readonly SpawnAttachment[]): DecodedAttachment[] | SpawnRefusal {
  if (list.length > MAX_ATTACHMENTS) return refusal(`${list.length} attachments; at most ${MAX_ATTACHMENTS} are accepted.`);
  const seen = new Set<string>();
  const out: DecodedAttachment[] = [];
  let total = 0;
  for (const item of list) {
    const name = item.name.trim();
    if (!PLAIN_NAME.test(name) || name === "." || name === "..") return refusal(`attachment name "${name.slice(0, 80)}" must be a plain file name (no folders).`);
    if (seen.has(name)) return refusal(`two attachments are named "${name}".`);
    seen.add(name);
    if (item.encoding === "base64" && !BASE64.test(item.content)) return refusal(`attachment "${name}" is not valid base64.`);
    const data = Buffer.from(item.content, item.encoding === "base64" ? "base64" : "utf8");
    if (data.length > MAX_ATTACHMENT_BYTES) return refusal(`attachment "${name}" is ${data.length} bytes; each may be at most ${MAX_ATTACHMENT_BYTES}.`);
    total += data.length;
    if (total > MAX_ATTACHMENTS_TOTAL_BYTES) return refusal(`attachments exceed ${MAX_ATTACHMENTS_TOTAL_BYTES} bytes in total.`);
    out.push({ name, data, ...(item.mimeType ? { mimeType: item.mimeType } : {}) });
  }
  return out;
}

/** Writes them under `mountPath` in the child's workspace (which must stay inside it). */
export function writeAttachments(workspaceDir: string, mountPath: string, files: readonly DecodedAttachment[]): WrittenAttachment[] | SpawnRefusal {
  fs.mkdirSync(workspaceDir, { recursive: true });
  const dir = resolveWorkspacePath(workspaceDir, mountPath);
  // A subfolder only: attachments must never replace the workspace's own files (AGENTS.md…).
  if (!dir.ok || dir.relative === ".") return refusal(`attachMountPath "${mountPath.slice(0, 120)}" must be a folder inside the sub-agent's workspace.`);
  fs.mkdirSync(dir.absolute, { recursive: true });
  const written: WrittenAttachment[] = [];
  for (const file of files) {
    // Checked per file too: a symbolic link already sitting at that name must not lead the write outside.
    const target = resolveWorkspacePath(workspaceDir, path.join(dir.absolute, file.name));
    if (!target.ok) return refusal(`attachment "${file.name}" would be written outside the sub-agent's workspace.`);
    fs.writeFileSync(target.absolute, file.data, { mode: 0o600 });
    written.push({ path: target.relative, bytes: file.data.length, ...(file.mimeType ? { mimeType: file.mimeType } : {}) });
  }
  return written;
}

function refusal(message: string): SpawnRefusal {
  return TOOL_ERRORS.attachmentsInvalid(message);
}

/** Takes back what `writeAttachments` wrote, for a spawn that failed after writing them. */
export function removeAttachments(workspaceDir: string, files: readonly WrittenAttachment[]): void {
  for (const file of files) fs.rmSync(path.join(workspaceDir, file.path), { force: true });
}
