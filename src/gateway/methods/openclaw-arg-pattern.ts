import { createHash } from "node:crypto";
import path from "node:path";
import type { ExecGrant } from "../../agents/approvals/exec-grants.js";

/**
 * How OpenClaw's approvals file names an exact-command grant bound to a directory, so its
 * `openclaw approvals get` shows the grant's scope as `argv+cwd`: `sha256:cwd-argv:v1:` and the
 * hex SHA-256 of the directory and then the arguments after the program, each written as its
 * UTF-8 byte length, NUL, itself, NUL (the arguments preceded by their count and a NUL).
 */
export function cwdBoundArgPattern(grant: ExecGrant): string {
  const field = (text: string) => `${Buffer.byteLength(text, "utf8")}\0${text}\0`;
  const args = grant.argv.slice(1);
  const subject = `${field(path.posix.normalize(grant.cwd))}${args.length}\0${args.map(field).join("")}`;
  return `sha256:cwd-argv:v1:${createHash("sha256").update(subject, "utf8").digest("hex")}`;
}
