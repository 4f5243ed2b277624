import { Type } from "@sinclair/typebox";
import { integer, NonEmptyString, StringList, stringEnum, withExpected } from "./primitives.js";

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
  /** `enabled: false` pauses the automatic dispatch of bound chats' messages to their ACP sessions; /acp and explicit spawns still work. */
  dispatch: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()) })),
  /** The ACP runtime backend: the built-in acpx one is the only one. */
  backend: Type.Optional(withExpected(stringEnum(["acpx"]), '"acpx" (the built-in ACP runtime; no other backend is available here)')),
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
      /** A status or tool line the turn already relayed is not relayed again (default true). */
      repeatSuppression: Type.Optional(Type.Boolean()),
      /** `live` (default): progress is relayed while the child works; `final_only`: only its result. */
      deliveryMode: Type.Optional(stringEnum(["live", "final_only"])),
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
