import os from "node:os";
import type { BridgeSession } from "./sessions.js";
import type { ProvenanceMode } from "./types.js";

/**
 * What `--provenance` adds to `chat.send`: `meta` records on the stored user message that it
 * came from an IDE through this bridge (and which ACP session); `meta+receipt` also puts a short
 * receipt the model reads before the prompt. Both need a gateway credential with operator.admin.
 */
export function provenanceParams(mode: ProvenanceMode | undefined, session: BridgeSession): Record<string, unknown> {
  if (!mode || mode === "off") return {};
  const systemInputProvenance = { kind: "external_user", originSessionId: session.sessionId, sourceChannel: "acp", sourceTool: "openclaw_acp" };
  if (mode === "meta") return { systemInputProvenance };
  const receipt = [
    "[Source Receipt]",
    "via=openclaw acp (an IDE session)",
    `host=${os.hostname()}`,
    `cwd=${session.cwd}`,
    `acpSessionId=${session.sessionId}`,
    `gatewaySession=${session.canonicalKey}`,
    "[/Source Receipt]",
  ].join("\n");
  return { systemInputProvenance, systemProvenanceReceipt: receipt };
}
