import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { NonInteractivePermissions, PermissionMode } from "../config.js";

/** What a person answered, or `unavailable` when nobody can be asked. */
export type PermissionAnswer = "allow-once" | "allow-always" | "deny" | "unavailable";

/** Asks a person about one permission request (the gateway's exec approvals). */
export interface PermissionAsker {
  ask(request: { sessionKey: string; agent: string; cwd: string; title: string; kind?: string }): Promise<PermissionAnswer>;
}

export type PermissionDecision = { response: RequestPermissionResponse; failure?: string };

/** Tool kinds that only look: `approve-reads` lets these through without asking. */
const READ_KINDS = new Set(["read", "search", "fetch", "think"]);

/**
 * Decides a `session/request_permission` by `permissionMode`, asking a person only when the
 * mode says so. The option is picked by its standard `kind`, never by its id: adapters name
 * their options differently (`allow-once`, `approved`, `proceed_once` …).
 */
export async function decidePermission(
  request: RequestPermissionRequest,
  policy: { mode: PermissionMode; nonInteractive: NonInteractivePermissions },
  ask: () => Promise<PermissionAnswer>,
): Promise<PermissionDecision> {
  const kind = request.toolCall.kind ?? undefined;
  if (policy.mode === "approve-all") return select(request.options, "allow");
  if (policy.mode === "deny-all") return select(request.options, "reject");
  if (kind && READ_KINDS.has(kind)) return select(request.options, "allow");
  const answer = await ask();
  if (answer === "allow-always") return select(request.options, "allow", true);
  if (answer === "allow-once") return select(request.options, "allow");
  if (answer === "deny") return select(request.options, "reject");
  const title = request.toolCall.title ?? request.toolCall.toolCallId;
  if (policy.nonInteractive === "deny") return select(request.options, "reject");
  return {
    ...select(request.options, "reject"),
    failure: `the agent asked for permission ("${title}") and nobody could answer it (no operator connected); nonInteractivePermissions is "fail"`,
  };
}

function select(options: PermissionOption[], want: "allow" | "reject", always = false): PermissionDecision {
  const order = want === "allow" ? (always ? ["allow_always", "allow_once"] : ["allow_once", "allow_always"]) : ["reject_once", "reject_always"];
  for (const kind of order) {
    const option = options.find((o) => o.kind === kind);
    if (option) return { response: { outcome: { outcome: "selected", optionId: option.optionId } } };
  }
  return { response: { outcome: { outcome: "cancelled" } } };
}
