import { randomUUID } from "node:crypto";
import { assertKeyText } from "./session-key-rules.js";

const PREFIX = "acp-bridge:";

/**
 * An IDE session opened through `openclaw acp` gets its own bare key `acp-bridge:<uuid>`: the
 * gateway scopes it to the default agent (`agent:<default>:acp-bridge:<uuid>`), so every editor
 * conversation is isolated from the agent's main session and from each other.
 */
export function buildAcpBridgeSessionKey(id: string = randomUUID()): string {
  const key = `${PREFIX}${id.trim().toLowerCase()}`;
  assertKeyText(key, "ACP bridge session key");
  return key;
}

/** True for a key `buildAcpBridgeSessionKey` made, bare or agent-scoped. */
export function isAcpBridgeSessionKey(key: string): boolean {
  const lowered = key.toLowerCase();
  return lowered.startsWith(PREFIX) || /^agent:[^:]+:acp-bridge:/.test(lowered);
}
