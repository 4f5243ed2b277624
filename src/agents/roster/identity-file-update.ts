import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { type MarkdownIdentity, mergeIdentityMarkdown } from "../context/identity-markdown.js";
import { AgentRosterError } from "./agents-file.js";

/** A planned rewrite of a workspace's IDENTITY.md, and how to take it back. */
export interface IdentityFileUpdate {
  file: string;
  /** Writes the merged file; false when it already says all of it. */
  write(): boolean;
  /** Puts the file back as it was before `write` (removes it when there was none). */
  undo(): void;
}

/**
 * Plans writing `identity` into `<workspace>/IDENTITY.md` (mergeIdentityMarkdown). A symlink or
 * anything but a regular file there is refused: the workspace's own file is the one edited, never
 * what a link points to.
 */
export function planIdentityFileUpdate(workspace: string, identity: MarkdownIdentity): IdentityFileUpdate {
  const file = path.join(workspace, "IDENTITY.md");
  let before: string | undefined;
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile())
      throw new AgentRosterError(`${file} is not a regular file (a symlink?): the identity was not written. Replace it with a plain file. Config was not changed.`);
    before = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
      if (err instanceof AgentRosterError) throw err;
      throw new AgentRosterError(`cannot read ${file}: ${(err as Error).message}. Config was not changed.`);
    }
  }
  const after = mergeIdentityMarkdown(before, identity);
  return {
    file,
    write: () => {
      if (after === before) return false;
      writeFileAtomicSync(file, after, 0o600);
      return true;
    },
    undo: () => {
      if (after === before) return;
      if (before === undefined) fs.rmSync(file, { force: true });
      else writeFileAtomicSync(file, before, 0o600);
    },
  };
}
