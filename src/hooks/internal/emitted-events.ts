/**
 * Every internal-hook event this gateway emits, by family and `family:action`
 * (docs/automation.md#internal-hooks); a hook listening only to others never runs.
 */
export const EMITTED_HOOK_EVENTS: ReadonlySet<string> = new Set([
  "command",
  "command:new",
  "command:reset",
  "command:stop",
  "gateway",
  "gateway:startup",
  "gateway:shutdown",
  "session",
  "session:auto-reset",
  "session:compact:before",
  "session:compact:after",
  "session:patch",
  "message",
  "message:received",
  "message:sent",
  "agent",
  "agent:bootstrap",
]);
