import { Type } from "@sinclair/typebox";
import { integer, NonEmptyString, StringList, stringEnum } from "./primitives.js";

/** How to start one external ACP agent: a command speaking ACP on stdio. */
const AcpAgentCommand = Type.Object({
  command: NonEmptyString,
  args: Type.Optional(StringList),
  /** Added to the agent's scrubbed environment (the only way a provider key reaches it). */
  env: Type.Optional(Type.Record(Type.String(), Type.String())),
});

const AcpAgents = Type.Record(Type.String({ pattern: "^[a-z0-9][a-z0-9_-]{0,63}$" }), AcpAgentCommand);

export const AcpSchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  defaultAgent: Type.Optional(NonEmptyString),
  allowedAgents: Type.Optional(StringList),
  stream: Type.Optional(
    Type.Object({
      /** Progress relayed to a `streamTo: "parent"` requester is coalesced: at most one system event per this many ms. */
      coalesceIdleMs: Type.Optional(integer(0, 600_000)),
      /** A relayed progress event is cut to this many characters. */
      maxChunkChars: Type.Optional(integer(50, 20_000)),
      /** Which session/update tags are relayed (true) or hidden (false); unlisted tags use the defaults. */
      tagVisibility: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    }),
  ),
  maxConcurrentSessions: Type.Optional(integer(1, 256)),
  idleTimeoutSeconds: Type.Optional(integer(0)),
  /** Short form of `plugins.entries.acpx.config.agents`. */
  agents: Type.Optional(AcpAgents),
});

export const AcpxConfig = Type.Object({
  agents: Type.Optional(AcpAgents),
  timeoutSeconds: Type.Optional(integer(1, 86_400)),
  permissionMode: Type.Optional(stringEnum(["approve-all", "approve-reads", "deny-all"])),
  nonInteractivePermissions: Type.Optional(stringEnum(["fail", "deny"])),
});
