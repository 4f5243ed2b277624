import type { TurnSettings } from "../agents/conversation-port.js";

/**
 * A message's own turn settings as the queue carries and compares them (SubmitInput.turnSettings):
 * only the fields that are set, or none when it sets none, so `{}` or `{ thinkingLevel: undefined }`
 * counts as a message without settings and merges and steers like one.
 */
export function messageTurnSettings(settings: TurnSettings | undefined): TurnSettings | undefined {
  if (settings === undefined) return undefined;
  let own: Record<string, unknown> | undefined;
  for (const [field, value] of Object.entries(settings)) if (value !== undefined) (own ??= {})[field] = value;
  return own as TurnSettings | undefined;
}
