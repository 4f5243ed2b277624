import type { InputProvenance } from "../../sessions/provenance.js";
import { invalidRequest } from "../protocol/errors.js";

const KINDS = new Set(["external_user", "inter_session", "internal_system"]);
const TEXT_FIELDS = ["method", "sourceSessionKey", "originSessionId", "sourceChannel", "sourceTool", "exchangeId"] as const;
const MAX_RECEIPT_CHARS = 4096;

/**
 * `chat.send`'s system provenance: `systemInputProvenance` replaces the default provenance
 * stored on the user message, and `systemProvenanceReceipt` is text the model sees before the
 * message (a bridge says where a prompt came from). Both claim to speak for the system, so
 * only a caller with `operator.admin` may send them.
 */
export function readSystemProvenance(
  params: { systemInputProvenance?: unknown; systemProvenanceReceipt?: unknown },
  callerScopes: readonly string[],
): { provenance?: InputProvenance; receipt?: string } {
  const { systemInputProvenance: raw, systemProvenanceReceipt: receipt } = params;
  if (raw === undefined && receipt === undefined) return {};
  if (!callerScopes.includes("operator.admin")) throw invalidRequest("system provenance fields require admin scope (operator.admin)");
  if (receipt !== undefined && (typeof receipt !== "string" || receipt.length > MAX_RECEIPT_CHARS)) {
    throw invalidRequest(`systemProvenanceReceipt must be a string of at most ${MAX_RECEIPT_CHARS} characters`);
  }
  if (raw === undefined) return { receipt: receipt as string };
  const provenance = parseProvenance(raw, "systemInputProvenance");
  return { provenance, ...(receipt !== undefined ? { receipt: receipt as string } : {}) };
}

/**
 * `agent`'s `inputProvenance`: where the message came from, stored on it in place of the default
 * (`external_user` by `agent`). Like chat.send's system provenance it speaks for the system, so
 * only a caller with `operator.admin` may send it.
 */
export function readInputProvenance(raw: unknown, callerScopes: readonly string[]): InputProvenance | undefined {
  if (raw === undefined) return undefined;
  if (!callerScopes.includes("operator.admin")) throw invalidRequest("inputProvenance requires admin scope (operator.admin)");
  return parseProvenance(raw, "inputProvenance");
}

function parseProvenance(raw: unknown, field: string): InputProvenance {
  if (!raw || typeof raw !== "object" || !KINDS.has((raw as { kind?: string }).kind ?? "")) {
    throw invalidRequest(`${field} must be an object whose kind is external_user, inter_session or internal_system`);
  }
  const record = raw as Record<string, unknown>;
  const provenance: Record<string, unknown> = { kind: record.kind };
  for (const name of TEXT_FIELDS) {
    const value = record[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || value.length > 512) throw invalidRequest(`${field}.${name} must be a string of at most 512 characters`);
    provenance[name] = value;
  }
  return provenance as unknown as InputProvenance;
}
