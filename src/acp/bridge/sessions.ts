import { buildAcpBridgeSessionKey } from "../../sessions/keys/index.js";

/** One IDE session and the gateway session it talks to. */
export interface BridgeSession {
  sessionId: string;
  /** The key the bridge sends (`acp-bridge:<uuid>`, or what `--session` / `_meta` named). */
  sessionKey: string;
  /** The gateway's canonical form (`agent:<id>:…`): what its events and approvals carry. */
  canonicalKey: string;
  cwd: string;
  /** A cancelled run still ending on the gateway: the next prompt waits for it. */
  ending?: Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The gateway key behind an ACP session id: ids this bridge hands out for new sessions are
 * UUIDs (their key is `acp-bridge:<uuid>`); ids from `session/list` are gateway keys already.
 */
export function sessionKeyForId(sessionId: string): string {
  return UUID.test(sessionId) ? buildAcpBridgeSessionKey(sessionId) : sessionId;
}

export class BridgeSessions {
  private readonly byId = new Map<string, BridgeSession>();

  get(sessionId: string): BridgeSession | undefined {
    return this.byId.get(sessionId);
  }

  mustGet(sessionId: string): BridgeSession {
    const session = this.byId.get(sessionId);
    if (!session) throw new Error(`session ${sessionId} is not open in this bridge; open it with session/new, session/load or session/resume`);
    return session;
  }

  set(session: BridgeSession): void {
    this.byId.set(session.sessionId, session);
  }

  delete(sessionId: string): void {
    this.byId.delete(sessionId);
  }

  byCanonicalKey(key: string): BridgeSession[] {
    return [...this.byId.values()].filter((s) => s.canonicalKey === key);
  }

  cwdOf(canonicalKey: string): string | undefined {
    return this.byCanonicalKey(canonicalKey)[0]?.cwd;
  }
}
