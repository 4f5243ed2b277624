import type { ShellWord } from "./shell-segments.js";

/**
 * Safe bins are filters of their standard input: they may run without approval only because they
 * read nothing else and write nothing but standard output. So a file operand (`head /etc/passwd`,
 * `uniq in out`) is a miss, and so is any option this table does not know (`wc --files0-from=F`
 * reads the files a list names). An expansion or a glob could be a file name, so it is a miss too.
 */
interface FilterSyntax {
  /** Options that take a value: the rest of the word (`-n5`, `--lines=5`) or the next word. */
  valueOptions: readonly string[];
  flagOptions: readonly string[];
  /** `tr` takes character sets, not files; the others take file names. */
  operands: "none" | "sets";
  /** `head -5`, `tail -20`. */
  numericShortOption?: boolean;
}

const GNU_FILTERS: Record<string, FilterSyntax> = {
  head: {
    valueOptions: ["-n", "-c", "--lines", "--bytes"],
    flagOptions: ["-q", "-v", "-z", "--quiet", "--silent", "--verbose", "--zero-terminated"],
    operands: "none",
    numericShortOption: true,
  },
  tail: {
    valueOptions: ["-n", "-c", "--lines", "--bytes"],
    flagOptions: ["-q", "-v", "-z", "--quiet", "--silent", "--verbose", "--zero-terminated"],
    operands: "none",
    numericShortOption: true,
  },
  wc: { valueOptions: [], flagOptions: ["-c", "-m", "-l", "-L", "-w", "--bytes", "--chars", "--lines", "--max-line-length", "--words"], operands: "none" },
  cut: {
    valueOptions: ["-b", "-c", "-d", "-f", "--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"],
    flagOptions: ["-s", "-z", "-n", "--complement", "--only-delimited", "--zero-terminated"],
    operands: "none",
  },
  uniq: {
    valueOptions: ["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"],
    flagOptions: ["-c", "-d", "-D", "-i", "-u", "-z", "--count", "--repeated", "--unique", "--ignore-case", "--zero-terminated"],
    operands: "none",
  },
  tr: { valueOptions: [], flagOptions: ["-c", "-C", "-d", "-s", "-t", "--complement", "--delete", "--squeeze-repeats", "--truncate-set1"], operands: "sets" },
};

/** Why these arguments make a safe bin more than a stdin filter, or undefined when they do not. */
export function safeBinArgumentsMiss(bin: string, args: readonly ShellWord[]): string | undefined {
  const syntax = GNU_FILTERS[bin];
  let operands = 0;
  let onlyOperands = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind !== "literal") return `"${bin}" with ${word.text}: an expansion may name a file, and safe bins only filter stdin`;
    const text = word.text;
    if (onlyOperands || text === "-" || !text.startsWith("-")) {
      if (text !== "-" && syntax?.operands !== "sets") return `"${bin} ${text}": safe bins only filter stdin, a file operand needs the allowlist`;
      operands++;
      continue;
    }
    if (text === "--") {
      onlyOperands = true;
      continue;
    }
    // A safe bin configured by the operator and unknown here: its options are taken as given.
    if (!syntax) continue;
    const consumed = optionWordsUsed(syntax, text, args[i + 1]);
    if (consumed === 0) return `"${bin} ${text}" is not a known option of the safe bin; it needs the allowlist`;
    i += consumed - 1;
  }
  if (syntax?.operands === "sets" && operands > 2) return `"${bin}" takes at most two sets`;
  return undefined;
}

/** How many words an option uses (1 or 2), or 0 when it is not one of the filter's options. */
function optionWordsUsed(syntax: FilterSyntax, text: string, next: ShellWord | undefined): number {
  if (text.startsWith("--")) {
    const [name, value] = splitLongOption(text);
    if (syntax.flagOptions.includes(name) && value === undefined) return 1;
    if (!syntax.valueOptions.includes(name)) return 0;
    if (value !== undefined) return 1;
    return next?.kind === "literal" ? 2 : 0;
  }
  if (syntax.numericShortOption && /^-\d+$/.test(text)) return 1;
  // A cluster of short options (`-cd`); a value option takes the rest of the word or the next.
  for (let k = 1; k < text.length; k++) {
    const option = `-${text[k]}`;
    if (syntax.flagOptions.includes(option)) continue;
    if (!syntax.valueOptions.includes(option)) return 0;
    if (k < text.length - 1) return 1;
    return next?.kind === "literal" ? 2 : 0;
  }
  return 1;
}

function splitLongOption(text: string): [string, string | undefined] {
  const eq = text.indexOf("=");
  return eq < 0 ? [text, undefined] : [text.slice(0, eq), text.slice(eq + 1)];
}
