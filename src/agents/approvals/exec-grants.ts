import { runsCodeFromArguments } from "./code-runners.js";
import type { ShellSegment } from "./shell-segments.js";
import { splitShellSegments } from "./shell-segments.js";

/**
 * What an `allow-always` answer grants, as in OpenClaw since 2026.8: one simple command, its
 * exact words, in the directory it was approved in. The same command there runs without asking
 * again; other arguments, or another directory, are asked about as before.
 */
export interface ExecGrant {
  /** The program and its arguments, as the shell grammar read them. */
  argv: string[];
  /** The absolute directory the command was approved to run in. */
  cwd: string;
}

/**
 * The grants an `allow-always` answer to `command` (run in `cwd`) adds: one per simple command
 * of the line, except a safe bin (a stdin filter already), a program that runs code from its
 * arguments (a script or `-c` changes what it does), and a command whose words are only known at
 * run time (`$VAR`, a glob). Undefined when the grammar cannot read the line with certainty or a
 * command sets variables before it: such a line is approved once only.
 */
export function grantsFor(command: string, cwd: string, safeBins: readonly string[]): ExecGrant[] | undefined {
  const parsed = splitShellSegments(command);
  if (!parsed.ok || parsed.segments.some((s) => s.assignments.length > 0)) return undefined;
  const grants: ExecGrant[] = [];
  for (const segment of parsed.segments) {
    if (safeBins.includes(segment.bin) || runsCodeFromArguments(segment.bin)) continue;
    if (segment.args.some((word) => word.kind !== "literal")) continue;
    grants.push({ argv: [segment.bin, ...segment.args.map((word) => word.text)], cwd });
  }
  return grants;
}

/** Whether `segment`, run in `cwd`, is exactly a granted command. */
export function isGranted(segment: ShellSegment, cwd: string | undefined, grants: readonly ExecGrant[]): boolean {
  if (cwd === undefined || segment.assignments.length > 0 || segment.args.some((word) => word.kind !== "literal")) return false;
  return grants.some((grant) => grant.cwd === cwd && grant.argv[0] === segment.bin && sameArguments(grant.argv, segment));
}

/** Whether two grants are the same command in the same directory. */
export function sameGrant(a: ExecGrant, b: ExecGrant): boolean {
  return a.cwd === b.cwd && a.argv.length === b.argv.length && a.argv.every((word, i) => word === b.argv[i]);
}

function sameArguments(argv: readonly string[], segment: ShellSegment): boolean {
  return argv.length === segment.args.length + 1 && segment.args.every((word, i) => word.text === argv[i + 1]);
}
