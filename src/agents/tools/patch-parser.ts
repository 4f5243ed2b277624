/**
 * Parser for the patch format of OpenClaw's apply_patch (inherited from Codex):
 *
 *   *** Begin Patch
 *   *** Add File: path          followed by "+" lines: the new file
 *   *** Delete File: path
 *   *** Update File: path
 *   *** Move to: other/path     optional, right after Update File
 *   @@ optional context line    starts a hunk; " " context, "-" removed, "+" added lines
 *   *** End of File             optional: the hunk sits at the end of the file
 *   *** End Patch
 */

export type HunkLine = { kind: "context" | "remove" | "add"; text: string };

export interface PatchHunk {
  /** Text after "@@": a line of the file above the hunk, to find the right spot. */
  anchor: string | undefined;
  lines: HunkLine[];
  endOfFile: boolean;
  /** 1-based line of the patch where the hunk starts, for error messages. */
  patchLine: number;
}

export type PatchOperation =
  | { kind: "add"; path: string; contents: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo: string | undefined; hunks: PatchHunk[] };

export class PatchParseError extends Error {
  constructor(
    readonly patchLine: number,
    message: string,
  ) {
    super(`line ${patchLine}: ${message}`);
  }
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";
/** "@@ -12,5 +12,6 @@" from unified diffs carries line numbers, not a context line to search for. */
const UNIFIED_RANGE = /^-\d+(,\d+)?\s+\+\d+(,\d+)?\s*@@/;

export function parsePatch(input: string): PatchOperation[] {
  const lines = input.replace(/\r\n/g, "\n").split("\n");
  let first = 0;
  while (first < lines.length && lines[first]?.trim() === "") first++;
  let last = lines.length - 1;
  while (last > first && lines[last]?.trim() === "") last--;
  if (lines[first]?.trim() !== BEGIN) throw new PatchParseError(first + 1, `the patch must start with "${BEGIN}".`);
  if (last === first || lines[last]?.trim() !== END) throw new PatchParseError(last + 1, `the patch must end with "${END}".`);

  const operations: PatchOperation[] = [];
  let index = first + 1;
  const lineAt = (i: number): string => lines[i] ?? "";
  const isFileMarker = (line: string): boolean => line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE) || line.trim() === END;
  /** Blank lines that only separate one file's section from the next belong to neither. */
  const onlyBlankUntilNextFile = (from: number): boolean => {
    let i = from;
    while (i < last && lineAt(i).trim() === "") i++;
    return i >= last || isFileMarker(lineAt(i));
  };

  while (index < last) {
    const line = lineAt(index);
    const patchLine = index + 1;
    if (line.trim() === "") {
      index++;
      continue;
    }
    if (line.startsWith(ADD)) {
      const path = requirePath(line.slice(ADD.length), patchLine);
      const body: string[] = [];
      index++;
      while (index < last && !isFileMarker(lineAt(index))) {
        const bodyLine = lineAt(index);
        if (bodyLine.trim() === "" && onlyBlankUntilNextFile(index)) break;
        if (!bodyLine.startsWith("+")) {
          throw new PatchParseError(index + 1, `every line of an added file must start with "+" (in Add File: ${path}).`);
        }
        body.push(bodyLine.slice(1));
        index++;
      }
      operations.push({ kind: "add", path, contents: body.length > 0 ? `${body.join("\n")}\n` : "" });
      continue;
    }
    if (line.startsWith(DELETE)) {
      operations.push({ kind: "delete", path: requirePath(line.slice(DELETE.length), patchLine) });
      index++;
      continue;
    }
    if (line.startsWith(UPDATE)) {
      const path = requirePath(line.slice(UPDATE.length), patchLine);
      index++;
      let moveTo: string | undefined;
      if (lineAt(index).startsWith(MOVE)) {
        moveTo = requirePath(lineAt(index).slice(MOVE.length), index + 1);
        index++;
      }
      const hunks: PatchHunk[] = [];
      let current: PatchHunk | undefined;
      while (index < last && !isFileMarker(lineAt(index))) {
        const hunkLine = lineAt(index);
        if (hunkLine.trim() === "" && onlyBlankUntilNextFile(index)) break;
        if (hunkLine.startsWith("@@")) {
          const anchor = hunkLine.slice(2).trim();
          current = { anchor: anchor === "" || UNIFIED_RANGE.test(anchor) ? undefined : anchor, lines: [], endOfFile: false, patchLine: index + 1 };
          hunks.push(current);
        } else if (hunkLine.trim() === END_OF_FILE) {
          if (!current) throw new PatchParseError(index + 1, `"${END_OF_FILE}" must follow a hunk (in Update File: ${path}).`);
          current.endOfFile = true;
        } else {
          const kind = hunkLine.startsWith("+") ? "add" : hunkLine.startsWith("-") ? "remove" : hunkLine.startsWith(" ") || hunkLine === "" ? "context" : undefined;
          if (!kind) {
            throw new PatchParseError(index + 1, `hunk lines must start with " ", "-", "+" or "@@" (in Update File: ${path}); got "${hunkLine.slice(0, 80)}".`);
          }
          if (!current || current.endOfFile) {
            // The first hunk may omit its "@@" line.
            current = { anchor: undefined, lines: [], endOfFile: false, patchLine: index + 1 };
            hunks.push(current);
          }
          // A blank line inside a hunk is a blank context line whose leading space got lost.
          current.lines.push({ kind, text: hunkLine.slice(hunkLine === "" ? 0 : 1) });
        }
        index++;
      }
      const empty = hunks.find((hunk) => hunk.lines.length === 0);
      if (empty) throw new PatchParseError(empty.patchLine, `a hunk has no lines (in Update File: ${path}).`);
      if (hunks.length === 0 && moveTo === undefined) {
        throw new PatchParseError(patchLine, `Update File: ${path} has no hunks and no Move to; nothing to do.`);
      }
      operations.push({ kind: "update", path, moveTo, hunks });
      continue;
    }
    throw new PatchParseError(patchLine, `expected "${ADD.trim()}", "${DELETE.trim()}", "${UPDATE.trim()}" or "${END}"; got "${line.slice(0, 80)}".`);
  }
  if (operations.length === 0) throw new PatchParseError(first + 1, "the patch contains no file operations.");
  return operations;
}

function requirePath(raw: string, patchLine: number): string {
  const path = raw.trim();
  if (path === "") throw new PatchParseError(patchLine, "the file path is missing.");
  return path;
}
