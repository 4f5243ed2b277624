import fs from "node:fs/promises";
import path from "node:path";
import { truncateFileText } from "./truncate-file-text.js";

/**
 * Injection order. Persona and rules first, memory last, so that when the total budget runs
 * out it is the (usually longest, most prunable) memory file that gets cut.
 * Each entry lists accepted spellings, preferred first (`memory.md` is the older one).
 */
export const BOOTSTRAP_FILE_ORDER: readonly (readonly string[])[] = [
  ["AGENTS.md"],
  ["SOUL.md"],
  ["TOOLS.md"],
  ["IDENTITY.md"],
  ["USER.md"],
  ["HEARTBEAT.md"],
  ["BOOTSTRAP.md"],
  ["MEMORY.md", "memory.md"],
];

/** Defaults of `agents.defaults.bootstrapMaxChars` / `bootstrapTotalMaxChars`. */
export const DEFAULT_BOOTSTRAP_MAX_CHARS = 20_000;
export const DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 60_000;

/** Below this much remaining budget a file is left out rather than shown as a stub. */
const MIN_USEFUL_REMAINDER = 64;

export interface BootstrapFile {
  name: string;
  /** What goes into the prompt: the file, or its cut-down form with a truncation marker. */
  content: string;
  truncated: boolean;
  originalChars: number;
}

export interface LoadedBootstrap {
  files: BootstrapFile[];
  /** One per truncated or unreadable file; meant for logs and `status`, not for the model. */
  warnings: string[];
}

export interface BootstrapLimits {
  maxCharsPerFile: number;
  maxTotalChars: number;
}

type ReadOutcome = { name: string; text: string } | { name: string; error: string } | null;

async function readFirstSpelling(dir: string, spellings: readonly string[]): Promise<ReadOutcome> {
  for (const name of spellings) {
    try {
      return { name, text: await fs.readFile(path.join(dir, name), "utf8") };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue;
      return { name, error: code ?? String(error) };
    }
  }
  return null;
}

/** A BOM and trailing blank lines carry nothing for the model but still cost tokens. */
function normalize(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trimEnd();
}

/**
 * Reads the workspace files that go into the system prompt, in BOOTSTRAP_FILE_ORDER. Missing and
 * blank files are skipped. Each file is cut to `maxCharsPerFile`, then files are cut (or left
 * out) so that all of them together stay within `maxTotalChars`.
 */
export async function loadBootstrapFiles(dir: string, limits: BootstrapLimits): Promise<LoadedBootstrap> {
  const outcomes = await Promise.all(BOOTSTRAP_FILE_ORDER.map((spellings) => readFirstSpelling(dir, spellings)));
  const files: BootstrapFile[] = [];
  const warnings: string[] = [];
  let remaining = Math.max(0, limits.maxTotalChars);

  for (const outcome of outcomes) {
    if (!outcome) continue;
    if ("error" in outcome) {
      warnings.push(`${outcome.name}: not readable (${outcome.error}); left out of the prompt`);
      continue;
    }
    const full = normalize(outcome.text);
    if (full.trim() === "") continue;

    const perFile = truncateFileText(full, Math.max(0, limits.maxCharsPerFile), outcome.name);
    if (!perFile) {
      warnings.push(`${outcome.name}: left out, bootstrapMaxChars (${limits.maxCharsPerFile}) is too small to show any of its ${full.length} chars`);
      continue;
    }
    if (perFile.shownChars < full.length) {
      warnings.push(`${outcome.name}: truncated to ${perFile.shownChars} of ${full.length} chars (bootstrapMaxChars ${limits.maxCharsPerFile})`);
    }

    let content = perFile.text;
    let shown = perFile.shownChars;
    if (content.length > remaining) {
      const cut = remaining >= MIN_USEFUL_REMAINDER ? truncateFileText(full, remaining, outcome.name) : null;
      if (!cut) {
        warnings.push(`${outcome.name}: left out, bootstrapTotalMaxChars (${limits.maxTotalChars}) is used up`);
        continue;
      }
      warnings.push(`${outcome.name}: truncated to ${cut.shownChars} of ${full.length} chars (bootstrapTotalMaxChars ${limits.maxTotalChars})`);
      content = cut.text;
      shown = cut.shownChars;
    }
    remaining -= content.length;
    files.push({ name: outcome.name, content, truncated: shown < full.length, originalChars: full.length });
  }
  return { files, warnings };
}
