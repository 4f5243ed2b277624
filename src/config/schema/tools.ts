import { Type } from "@sinclair/typebox";
import { integer, StringList, stringEnum } from "./primitives.js";
import { WebToolsSchema } from "./web-tools.js";
import { MediaToolsSchema } from "./media-tools.js";

export const ToolProfile = stringEnum(["minimal", "coding", "messaging", "full"]);
export const ToolAllowDeny = Type.Object({ allow: Type.Optional(StringList), deny: Type.Optional(StringList) });
/** A chat's or a sender's tool rule: `allow` (with `alsoAllow` added to it) narrows, `deny` removes. */
export const ToolPolicyRule = Type.Object({ allow: Type.Optional(StringList), alsoAllow: Type.Optional(StringList), deny: Type.Optional(StringList) });
/**
 * Rules per channel sender, keyed `channel:<channel>:<id>`, `id:<id>`, `username:<handle>`,
 * `name:<display name>` or `*` (an unprefixed key is an id); the first match in that order applies.
 */
export const ToolsBySender = Type.Record(Type.String({ minLength: 1 }), ToolPolicyRule);
export const ProviderToolPolicy = Type.Object({
  profile: Type.Optional(ToolProfile),
  allow: Type.Optional(StringList),
  deny: Type.Optional(StringList),
});
export const LoopDetection = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  maxConsecutiveCalls: Type.Optional(integer(1)),
  maxSameFileReads: Type.Optional(integer(1)),
});

/**
 * `tools.elevated` (and an agent's `tools.elevated`, which can only narrow it): which chat senders
 * may have `exec` leave a sandboxed session's sandbox (`/elevated`). `allowFrom` lists senders per
 * channel (`telegram`, `discord`, `slack`; `webchat` for `chat.send`); nobody is listed by default.
 */
export const ElevatedAccessSchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  allowFrom: Type.Optional(Type.Record(Type.String({ minLength: 1 }), StringList)),
});

const ExecSettings = Type.Object({
  /** OpenClaw's one knob: deny, allowlist, ask (allowlist, asking on a miss), full; it sets security and ask. */
  mode: Type.Optional(stringEnum(["deny", "allowlist", "ask", "auto", "full"])),
  security: Type.Optional(stringEnum(["deny", "allowlist", "full"])),
  ask: Type.Optional(stringEnum(["off", "on-miss", "always"])),
  allowlist: Type.Optional(StringList),
  safeBins: Type.Optional(StringList),
  timeoutSeconds: Type.Optional(integer(1, 86_400)),
  approvalTimeoutSeconds: Type.Optional(integer(1, 86_400)),
  /** How long a command runs in front before it continues in the background (ms, 10-120000; default 10000). */
  backgroundMs: Type.Optional(integer(0)),
  /** A background command's ending wakes the agent (default true). */
  notifyOnExit: Type.Optional(Type.Boolean()),
  /** A background success without output wakes it too (default false). */
  notifyOnExitEmptySuccess: Type.Optional(Type.Boolean()),
  /** How long a finished background command stays readable by `process` (ms; default 1800000). */
  cleanupMs: Type.Optional(integer(1_000, 86_400_000)),
  /**
   * Whether apply_patch is offered, and to which models (ids or provider/id refs; empty: every
   * model). OpenClaw's `workspaceOnly` is an unknown key: apply_patch always stays in the workspace.
   */
  applyPatch: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), allowModels: Type.Optional(StringList) })),
});

/** `tools.*`: which tools agents get (the policy pipeline) and how exec is gated. */
export const ToolsSchema = Type.Object({
  profile: Type.Optional(ToolProfile),
  /** Tools added to the profile's list (the profile layer); `allow` here still narrows afterwards. */
  alsoAllow: Type.Optional(StringList),
  allow: Type.Optional(StringList),
  deny: Type.Optional(StringList),
  byChannel: Type.Optional(Type.Record(Type.String(), ToolAllowDeny)),
  byProvider: Type.Optional(Type.Record(Type.String(), ProviderToolPolicy)),
  /** Per channel sender (see ToolsBySender): applied to chat messages, after the chat's own rule. */
  toolsBySender: Type.Optional(ToolsBySender),
  sandbox: Type.Optional(Type.Object({ tools: Type.Optional(ToolAllowDeny) })),
  loopDetection: Type.Optional(LoopDetection),
  exec: Type.Optional(ExecSettings),
  elevated: Type.Optional(ElevatedAccessSchema),
  /** web_search (its provider and cache) and web_fetch (its limits). */
  web: Type.Optional(WebToolsSchema),
  /** Inbound media understanding: audio transcription (its models and settings). */
  media: Type.Optional(MediaToolsSchema),
  /** Cross-agent session tools (sessions_send, sessions_list, …) and which agents they may reach. */
  agentToAgent: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), allow: Type.Optional(StringList) })),
  /** OpenClaw's kill switch for `progress_card` (default true): false offers it to no run. */
  updatePlan: Type.Optional(Type.Boolean()),
  /** Which sessions the session tools may see: `tree` (default) is the caller and what it spawned. */
  sessions: Type.Optional(Type.Object({ visibility: Type.Optional(stringEnum(["self", "tree", "agent", "all"])) })),
});
