/** Button data that is a chat command: an exec approval prompt's `/approve <id> <decision>`. */
const COMMAND_BUTTON = /^\/approve \S+ (allow-once|allow-always|deny)$/;

/**
 * Whether a button's data is a command, so that a press is that command typed by whoever
 * pressed it (and authorized as theirs). Kept to the one shape the gateway makes, so any other
 * button data still reaches the agent as data.
 */
export function isCommandButton(data: string): boolean {
  return COMMAND_BUTTON.test(data);
}
