/**
 * Where a user-role message came from, stored on its transcript line. A model sees only the text;
 * the gateway reads the provenance to keep other sessions' and the runtime's messages apart from
 * what a person typed, and to stop messages bouncing between sessions for ever.
 */
export type InputProvenanceKind = "external_user" | "inter_session" | "internal_system";

export interface InputProvenance {
  kind: InputProvenanceKind;
  /** The RPC or route that accepted it (`chat.send`, `agent`, `http`, `channel`). */
  method?: string;
  /** The session whose agent sent it (inter-session messages, sub-agent tasks and results). */
  sourceSessionKey?: string;
  /** That session's transcript generation when it sent the message. */
  originSessionId?: string;
  sourceChannel?: string;
  /** The tool that sent it (`sessions_spawn`, `sessions_send`, `subagents`) or `subagent_announce`. */
  sourceTool?: string;
  /** Agent-to-agent: the exchange this message belongs to and its place in it (1 = the first message). */
  exchangeId?: string;
  hop?: number;
}
