import { type ExecGrant, isGranted } from "./exec-grants.js";
import { safeBinArgumentsMiss } from "./safe-bin-arguments.js";
import { splitShellSegments, type ShellSegment } from "./shell-segments.js";

/**
 * Decide whether a shell command may run without asking: `security` sets what is allowed at all,
 * `ask` when a human must confirm. In allowlist mode the line is split with a shell grammar
 * (shell-segments.ts) and every simple command in it must be an allowlisted program or a safe
 * bin used as a stdin filter (safe-bin-arguments.ts), or exactly a command an `allow-always`
 * answer granted in this directory; a line the grammar cannot read with certainty is a miss,
 * never a guess.
 */
export type ExecSecurity = "deny" | "allowlist" | "full";
export type ExecAsk = "off" | "on-miss" | "always";

export interface ExecPolicySettings {
  security: ExecSecurity;
  ask: ExecAsk;
  /** Bare command names (`git`) or absolute path globs (`/usr/bin/*`). */
  allowlist: readonly string[];
  safeBins: readonly string[];
  /** Exact commands `allow-always` answers granted, each in its directory (exec-grants.ts). */
  grants?: readonly ExecGrant[];
  /** Where the command runs: a grant covers it only there. */
  cwd?: string;
}

export const DEFAULT_SAFE_BINS = ["cut", "uniq", "head", "tail", "tr", "wc"];

export type ExecVerdict = { verdict: "allow" } | { verdict: "deny"; reason: string } | { verdict: "ask"; reason: string };

export function evaluateExecPolicy(command: string, settings: ExecPolicySettings): ExecVerdict {
  if (settings.security === "deny") return { verdict: "deny", reason: "command execution is disabled (tools.exec.security: deny)" };
  if (settings.security === "full") {
    return settings.ask === "always" ? { verdict: "ask", reason: "every command needs approval (tools.exec.ask: always)" } : { verdict: "allow" };
  }
  const miss = allowlistMiss(command, settings);
  if (!miss) return settings.ask === "always" ? { verdict: "ask", reason: "every command needs approval (tools.exec.ask: always)" } : { verdict: "allow" };
  if (settings.ask === "off") return { verdict: "deny", reason: `${miss} (tools.exec.security: allowlist)` };
  return { verdict: "ask", reason: miss };
}

/** Why the command is not covered by the allowlist, or undefined when it is. */
function allowlistMiss(command: string, settings: ExecPolicySettings): string | undefined {
  const parsed = splitShellSegments(command);
  if (!parsed.ok) return parsed.reason;
  for (const segment of parsed.segments) {
    const miss = segmentMiss(segment, settings);
    if (miss) return miss;
  }
  return undefined;
}

function segmentMiss(segment: ShellSegment, settings: ExecPolicySettings): string | undefined {
  // PATH, LD_PRELOAD, GIT_SSH_COMMAND and the like choose what actually runs.
  if (segment.assignments.length > 0) return `environment assignments before a command (${segment.assignments[0]!.split("=")[0]}=…) are not allowlisted`;
  if (settings.allowlist.some((pattern) => matchesPattern(pattern, segment.bin))) return undefined;
  if (settings.grants && isGranted(segment, settings.cwd, settings.grants)) return undefined;
  if (settings.safeBins.includes(segment.bin)) return safeBinArgumentsMiss(segment.bin, segment.args);
  return `"${segment.bin}" is not on the exec allowlist`;
}

function matchesPattern(pattern: string, bin: string): boolean {
  if (!pattern.includes("/")) return pattern === bin;
  const regex = new RegExp(`^${pattern.split("*").map(escapeRegex).join("[^/]*")}$`);
  return regex.test(bin);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
