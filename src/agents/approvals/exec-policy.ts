/**
 * Decide whether a shell command may run without asking (reference §6.5): `security` sets what is
 * allowed at all, `ask` when a human must confirm. In allowlist mode every segment of a chain
 * must start with an allowlisted command or a safe bin, and redirections count as a miss.
 */
export type ExecSecurity = "deny" | "allowlist" | "full";
export type ExecAsk = "off" | "on-miss" | "always";

export interface ExecPolicySettings {
  security: ExecSecurity;
  ask: ExecAsk;
  /** Bare command names (`git`) or absolute path globs (`/usr/bin/*`). */
  allowlist: readonly string[];
  safeBins: readonly string[];
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
  if (/[<>]|\$\(|`/.test(command)) return "redirections and command substitution are not allowlisted";
  const segments = command.split(/\|\||&&|[;|\n]/).map((s) => s.trim()).filter(Boolean);
  if (segments.length === 0) return "empty command";
  for (const segment of segments) {
    const bin = firstWord(segment);
    if (!bin) return "empty command segment";
    const allowed = settings.allowlist.some((pattern) => matchesPattern(pattern, bin)) || settings.safeBins.includes(bin);
    if (!allowed) return `"${bin}" is not on the exec allowlist`;
  }
  return undefined;
}

function firstWord(segment: string): string | undefined {
  // Leading VAR=value assignments change the environment, not the command.
  const words = segment.split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  return words[0];
}

function matchesPattern(pattern: string, bin: string): boolean {
  if (!pattern.includes("/")) return pattern === bin;
  const regex = new RegExp(`^${pattern.split("*").map(escapeRegex).join("[^/]*")}$`);
  return regex.test(bin);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
