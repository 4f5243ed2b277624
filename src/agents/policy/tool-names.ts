/**
 * Tool names as policy compares them. Config is written by people ("Exec", "bash",
 * "apply-patch"), tools register canonical snake_case names; both sides go through
 * `normalizeToolName` so a list entry and a tool meet on one spelling.
 */

// Older or alternative spellings that must be governed like the canonical tool: denying
// "exec" has to deny a tool still registered as "bash", and the reverse.
const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = {
  bash: "exec",
  "apply-patch": "apply_patch",
  // Newer OpenClaw calls the cron tool "automations"; either name names the same tool.
  automations: "cron",
  // progress_card replaced update_plan: policies that name the old tool keep their meaning.
  update_plan: "progress_card",
};

/** Lower-cased, trimmed, aliases folded onto their canonical tool name. */
export function normalizeToolName(name: string): string {
  const lowered = name.trim().toLowerCase();
  return TOOL_NAME_ALIASES[lowered] ?? lowered;
}
