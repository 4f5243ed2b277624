/**
 * Button data that is a chat command the gateway's own questions carry: an exec approval
 * prompt's `/approve <id> <decision>`, a question's `/answer <id> <option number>` and its
 * "Other…" `/answer <id>` (ask_user's `ask_…` ids, an ACP agent's form's `acp_…`).
 */
const COMMAND_BUTTONS = [/^\/approve \S+ (allow-once|allow-always|deny)$/, /^\/answer (ask|acp)_[0-9a-f]{32}( \d)?$/];

/**
 * Whether a button's data is a command, so that a press is that command typed by whoever
 * pressed it (and authorized as theirs). Kept to the shapes the gateway makes, so any other
 * button data still reaches the agent as data.
 */
export function isCommandButton(data: string): boolean {
  return COMMAND_BUTTONS.some((shape) => shape.test(data));
}
