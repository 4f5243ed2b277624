import { parse, type ParseEntry } from "shell-quote";

/**
 * One simple command of a shell line: what runs (`bin`) and the words after it. Leading
 * `NAME=value` assignments are kept apart because they can change what `bin` does.
 */
export interface ShellSegment {
  assignments: string[];
  bin: string;
  args: ShellWord[];
}

/** A word as the policy sees it: literal text, or something the shell expands at run time. */
export type ShellWord = { kind: "literal"; text: string } | { kind: "expansion"; text: string };

export type ShellSegmentsResult = { ok: true; segments: ShellSegment[] } | { ok: false; reason: string };

/** Operators that end one simple command and start the next; each segment is checked on its own. */
const SEGMENT_OPERATORS = new Set(["&&", "||", ";", ";;", "|", "|&", "&"]);

/** Marks a `$NAME` / `${NAME}` the tokenizer met, so it is never mistaken for literal text. */
const EXPANSION_OP = "\u0000expansion";

/**
 * What may follow `$` and expand to nothing but a value: a name, positional digits, or one
 * special parameter. The tokenizer hands over an empty name for `"$(…)"` and the whole inside of
 * `"${x:-$(…)}"`, both of which the shell executes.
 */
const PARAMETER_NAME = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])$/;

/**
 * Splits a command line into its simple commands, for a policy that must be certain of every
 * program the line starts. The tokenizer (shell-quote) knows quoting and every control operator;
 * what it models differently from `/bin/sh` is refused here rather than guessed at, so the answer
 * is either every segment, or the reason the line cannot be read with certainty:
 * - a newline or other control character (the tokenizer reads it as a space, the shell as `;`);
 * - backticks, `$(…)`, `<(…)` and subshells: a command inside a word or a group;
 * - any redirection except duplicating a descriptor onto a number (`2>&1`): it writes or reads files;
 * - a `#` comment (the shell starts one only at a word's beginning, the tokenizer anywhere);
 * - a `$` not followed by a plain parameter name (`$(…)`, `$((…))` and `${x:-…}` inside double
 *   quotes, which the tokenizer passes on as text while the shell runs or evaluates them);
 * - an expansion or glob in the command position: the program is unknown until run time.
 */
export function splitShellSegments(commandLine: string): ShellSegmentsResult {
  const command = commandLine.trim();
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(command)) return { ok: false, reason: "multi-line commands and control characters are not allowlisted" };
  if (command.includes("`")) return { ok: false, reason: "command substitution is not allowlisted" };

  let tokens: ParseEntry[];
  try {
    tokens = parse(command, (name) => ({ op: EXPANSION_OP, pattern: name }) as unknown as string);
  } catch (err) {
    return { ok: false, reason: `the command could not be parsed (${(err as Error).message})` };
  }

  const segments: ShellSegment[] = [];
  let words: ShellWord[] = [];
  const closeSegment = (): string | undefined => {
    const segment = toSegment(words);
    words = [];
    if (typeof segment === "string") return segment;
    segments.push(segment);
    return undefined;
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (typeof token === "string") {
      words.push({ kind: "literal", text: token });
      continue;
    }
    if ("comment" in token) return { ok: false, reason: "comments (#) are not allowlisted" };
    const op = token.op as string;
    if (op === EXPANSION_OP) {
      const name = (token as { pattern: string }).pattern;
      if (!PARAMETER_NAME.test(name)) return { ok: false, reason: "command substitution and parameter expansion with operators ($(…), $((…)), ${x:-…}) are not allowlisted" };
      words.push({ kind: "expansion", text: `$${name}` });
      continue;
    }
    if (op === "glob") {
      words.push({ kind: "expansion", text: (token as { pattern: string }).pattern });
      continue;
    }
    if (SEGMENT_OPERATORS.has(op)) {
      const problem = closeSegment();
      if (problem) return { ok: false, reason: problem };
      continue;
    }
    if (op === ">&" && isDescriptor(tokens[i + 1])) {
      i++;
      continue;
    }
    if (op === "(" || op === ")" || op === "<(" || op === ">(") return { ok: false, reason: "subshells and command substitution are not allowlisted" };
    return { ok: false, reason: `redirections (${op}) are not allowlisted` };
  }
  // A line may end with `;` or `&` (nothing runs after it); an empty line is not a command.
  if (words.length > 0 || segments.length === 0) {
    const problem = closeSegment();
    if (problem) return { ok: false, reason: problem };
  }
  return { ok: true, segments };
}

function toSegment(words: ShellWord[]): ShellSegment | string {
  const assignments: string[] = [];
  let index = 0;
  while (index < words.length && words[index]!.kind === "literal" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index]!.text)) {
    assignments.push(words[index]!.text);
    index++;
  }
  const head = words[index];
  if (!head) return "empty command segment";
  if (head.kind !== "literal") return `the program to run (${head.text}) is only known at run time`;
  return { assignments, bin: head.text, args: words.slice(index + 1) };
}

function isDescriptor(token: ParseEntry | undefined): boolean {
  return typeof token === "string" && /^(\d+|-)$/.test(token);
}
