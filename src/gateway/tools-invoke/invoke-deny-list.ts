import { compileToolList } from "../../agents/policy/index.js";

/**
 * Tools a direct invocation (`POST /tools/invoke`, `tools.invoke`) never reaches unless
 * `gateway.tools.allow` takes them off this list, as OpenClaw's HTTP deny list: shell and
 * background processes (code execution), patches (file rewrites anywhere in the workspace),
 * spawning and messaging sessions, scheduled jobs.
 */
export const DEFAULT_INVOKE_DENY: readonly string[] = ["exec", "process", "apply_patch", "sessions_spawn", "sessions_send", "cron"];

/** Whether `gateway.tools` blocks the tool for direct invocations: its `deny`, or the built-in list less its `allow`. */
export function invokeBlocked(tool: string, settings: { allow?: readonly string[]; deny?: readonly string[] } | undefined): boolean {
  if (settings?.deny && compileToolList([...settings.deny]).matchOf(tool) !== undefined) return true;
  const allowed = settings?.allow ? compileToolList([...settings.allow]) : undefined;
  return DEFAULT_INVOKE_DENY.includes(tool) && allowed?.matchOf(tool) === undefined;
}
