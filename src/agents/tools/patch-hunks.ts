import type { PatchHunk } from "./patch-parser.js";

export type HunkApplication = { ok: true; content: string } | { ok: false; hunkNumber: number; patchLine: number; reason: string };

/**
 * Applies the hunks of one "Update File" section to the file's text, in memory. Hunks are found in
 * order, each after the previous one, by content rather than line numbers (the patch has none).
 * Matching is exact first, then ignoring trailing whitespace, then ignoring surrounding
 * whitespace: models often get indentation of blank or context lines slightly wrong.
 */
export function applyHunks(original: string, hunks: PatchHunk[]): HunkApplication {
  const eol = original.includes("\r\n") ? "\r\n" : "\n";
  const endsWithEol = original === "" || original.endsWith(eol);
  const lines = original === "" ? [] : original.split(eol);
  if (original.endsWith(eol)) lines.pop();

  const replacements: { start: number; removeCount: number; insert: string[] }[] = [];
  let cursor = 0;
  for (const [index, hunk] of hunks.entries()) {
    const failure = (reason: string): HunkApplication => ({ ok: false, hunkNumber: index + 1, patchLine: hunk.patchLine, reason });
    if (hunk.anchor !== undefined) {
      const anchorAt = findSequence(lines, [hunk.anchor], cursor, false);
      if (anchorAt === -1) return failure(`its context line "@@ ${hunk.anchor}" was not found`);
      cursor = anchorAt + 1;
    }
    let oldLines = hunk.lines.filter((line) => line.kind !== "add").map((line) => line.text);
    let newLines = hunk.lines.filter((line) => line.kind !== "remove").map((line) => line.text);

    if (oldLines.length === 0) {
      // Nothing to find: insert right after the anchor, or else at the end of the file.
      const at = hunk.anchor !== undefined ? cursor : lines.length;
      replacements.push({ start: at, removeCount: 0, insert: newLines });
      cursor = at;
      continue;
    }

    let at = findSequence(lines, oldLines, cursor, hunk.endOfFile);
    if (at === -1 && oldLines.at(-1) === "") {
      // A trailing blank context line usually stands for the file's final newline, not a line.
      oldLines = oldLines.slice(0, -1);
      if (newLines.at(-1) === "") newLines = newLines.slice(0, -1);
      at = oldLines.length > 0 ? findSequence(lines, oldLines, cursor, hunk.endOfFile) : -1;
    }
    if (at === -1) {
      const expected = oldLines.slice(0, 8).join("\n") + (oldLines.length > 8 ? "\n…" : "");
      return failure(`these lines were not found${cursor > 0 ? " after the previous hunk" : ""}:\n${expected}`);
    }
    replacements.push({ start: at, removeCount: oldLines.length, insert: newLines });
    cursor = at + oldLines.length;
  }

  const result = [...lines];
  for (const { start, removeCount, insert } of [...replacements].reverse()) result.splice(start, removeCount, ...insert);
  const text = result.join(eol);
  return { ok: true, content: result.length > 0 && endsWithEol ? text + eol : text };
}

const LINE_COMPARISONS: ((a: string, b: string) => boolean)[] = [(a, b) => a === b, (a, b) => a.trimEnd() === b.trimEnd(), (a, b) => a.trim() === b.trim()];

/** First index at or after `from` where `pattern` matches; at the end of the file first if asked. */
function findSequence(lines: string[], pattern: string[], from: number, preferEnd: boolean): number {
  for (const same of LINE_COMPARISONS) {
    const matchesAt = (start: number): boolean => pattern.every((text, offset) => same(lines[start + offset] ?? "", text));
    if (preferEnd) {
      const endStart = lines.length - pattern.length;
      if (endStart >= from && matchesAt(endStart)) return endStart;
    }
    for (let start = from; start + pattern.length <= lines.length; start++) if (matchesAt(start)) return start;
  }
  return -1;
}
