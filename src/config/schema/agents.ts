import { Type } from "@sinclair/typebox";
import { BlockStreamingCoalesce, integer, MAX_TIMER_MS, NonEmptyString, StringList, stringEnum, withExpected } from "./primitives.js";
import { Compaction, ContextPruning, ContextWindowGuard } from "./context-management.js";
import { ElevatedAccessSchema, LoopDetection, ProviderToolPolicy, ToolAllowDeny, ToolsBySender } from "./tools.js";
import { DefaultHeartbeatSchema, HeartbeatSchema } from "./automation.js";

/** What a chat sees of the model's reasoning: `off`, `on` (a message before the reply), `stream` (in the live draft). */
const ReasoningLevel = stringEnum(["off", "on", "stream"]);

export const AGENT_ID_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$";
export const AGENT_ID_DESCRIPTION = "an agent id: 1-64 of a-z, 0-9, _ or -, starting with a letter or digit";

const AgentId = withExpected(Type.String({ pattern: AGENT_ID_PATTERN }), AGENT_ID_DESCRIPTION);

/** "provider/model", or a primary model with ordered fallbacks. */
const ModelRef = Type.Union([
  NonEmptyString,
  Type.Object({
    primary: Type.Optional(NonEmptyString),
    fallbacks: Type.Optional(StringList),
  }),
]);

/**
 * The image-generation model (`image_generate`): "provider/model", or a primary with ordered
 * fallbacks and the provider request's timeout. Only providers speaking the OpenAI Images API run
 * here (image-generation-warnings.ts says, at load, which others are skipped).
 */
const ImageGenerationModel = Type.Union([
  NonEmptyString,
  Type.Object({
    primary: Type.Optional(NonEmptyString),
    fallbacks: Type.Optional(StringList),
    timeoutMs: Type.Optional(integer(1, MAX_TIMER_MS)),
  }),
]);

/** One `modelPolicy.allow` entry: an exact `provider/model` ref or a `provider/*` prefix. */
const ModelPolicyRef = withExpected(Type.String({ pattern: "^[^/\\s*]+(/[^/\\s*]+)*/([^/\\s*]+|\\*)$" }), 'a "provider/model" ref or a "provider/*" prefix');

/** Which models a user or job may choose for the agent; empty or absent: any. */
const ModelPolicy = Type.Object({ allow: Type.Optional(Type.Array(ModelPolicyRef)) });

const ThinkingLevel = stringEnum(["off", "minimal", "low", "medium", "high", "xhigh", "adaptive", "max"]);

const AgentIdentity = Type.Object({
  name: Type.Optional(Type.String()),
  emoji: Type.Optional(Type.String()),
  avatar: Type.Optional(Type.String()),
});

/** Bounds on runtime excerpts put into a turn. */
const ContextLimits = Type.Object({ memoryGetMaxChars: Type.Optional(integer(100, 1_000_000)), postCompactionMaxChars: Type.Optional(integer(100, 1_000_000)) });

const AgentTools = Type.Object({
  profile: Type.Optional(stringEnum(["minimal", "coding", "messaging", "full"])),
  /** Tools added to the profile's list, in place of `tools.alsoAllow`; `allow` here still narrows afterwards. */
  alsoAllow: Type.Optional(StringList),
  allow: Type.Optional(StringList),
  deny: Type.Optional(StringList),
  byProvider: Type.Optional(Type.Record(Type.String(), ProviderToolPolicy)),
  sandbox: Type.Optional(Type.Object({ tools: Type.Optional(ToolAllowDeny) })),
  loopDetection: Type.Optional(LoopDetection),
  /** This agent's `tools.toolsBySender`: when one of its keys matches the sender, it replaces the global match. */
  toolsBySender: Type.Optional(ToolsBySender),
  /** Both this and `tools.elevated` must be enabled, and a sender must be on both lists when this one has a list for the channel. */
  elevated: Type.Optional(ElevatedAccessSchema),
});

/** Where `exec` runs: on the host, or in a bubblewrap / Docker sandbox (docs/security.md, "The exec sandbox"). */
export const SandboxSettings = Type.Object({
  mode: Type.Optional(stringEnum(["off", "non-main", "all"])),
  backend: Type.Optional(stringEnum(["bwrap", "docker"])),
  scope: Type.Optional(stringEnum(["agent", "session", "shared"])),
  workspaceAccess: Type.Optional(stringEnum(["none", "ro", "rw"])),
  network: Type.Optional(stringEnum(["none", "host"])),
  /** `binds`: host paths mounted into the sandbox, `host:sandbox[:ro|rw]` (an agent's added to the defaults', except under scope shared). */
  docker: Type.Optional(Type.Object({ image: Type.Optional(NonEmptyString), binds: Type.Optional(Type.Array(NonEmptyString, { maxItems: 64 })) })),
});

/** `never`, `instant` (as the message arrives), `thinking` (at the model's first output), `message` (at its first text). */
const TypingMode = stringEnum(["never", "instant", "thinking", "message"]);

const SubagentLimits = Type.Object({
  maxConcurrent: Type.Optional(integer(1)),
  maxChildrenPerAgent: Type.Optional(integer(1)),
  maxSpawnDepth: Type.Optional(integer(0)),
  archiveAfterMinutes: Type.Optional(integer(0)),
  allowAgents: Type.Optional(StringList),
  runTimeoutSeconds: Type.Optional(integer(0)),
  model: Type.Optional(NonEmptyString),
  thinking: Type.Optional(ThinkingLevel),
});

/** One agent's own sub-agent settings; each key replaces the `agents.defaults.subagents` one. */
const AgentSubagents = Type.Object({
  allowAgents: Type.Optional(StringList),
  model: Type.Optional(NonEmptyString),
  thinking: Type.Optional(ThinkingLevel),
});

/** A random pause before each block reply after the first: `natural` is 800-2500 ms, `custom` takes `minMs`/`maxMs`. */
const HumanDelay = Type.Object({
  mode: Type.Optional(stringEnum(["off", "natural", "custom"])),
  minMs: Type.Optional(integer(0, 60_000)),
  maxMs: Type.Optional(integer(0, 60_000)),
});

const AgentsDefaults = Type.Object({
  workspace: Type.Optional(Type.String()),
  model: Type.Optional(ModelRef),
  /** Describes inbound images for an agent whose model takes no images (when tools.media lists no image entry). */
  imageModel: Type.Optional(ModelRef),
  /** Models of the media-generation tools: `image` backs image_generate (video and music generation are not supported). */
  mediaModels: Type.Optional(Type.Object({ image: Type.Optional(ImageGenerationModel) })),
  models: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Object({
        alias: Type.Optional(Type.String()),
        params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      }),
    ),
  ),
  modelPolicy: Type.Optional(ModelPolicy),
  timeoutSeconds: Type.Optional(integer(0)),
  mediaMaxMb: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2048 })),
  maxConcurrent: Type.Optional(integer(1)),
  /** The repository the runtime line names (`repo=`); unset: the nearest folder above the workspace holding `.git`. */
  repoRoot: Type.Optional(Type.String({ minLength: 1 })),
  bootstrapMaxChars: Type.Optional(integer(0)),
  bootstrapTotalMaxChars: Type.Optional(integer(0)),
  /** The longest side, in pixels, of an image a message or a tool result brings to the model (default 1200); bigger ones are scaled down. */
  imageMaxDimensionPx: Type.Optional(integer(1)),
  skipBootstrap: Type.Optional(Type.Boolean()),
  thinkingDefault: Type.Optional(ThinkingLevel),
  /** Model parameters for every model (temperature, maxTokens, …): the base that each more specific `params` overrides key by key. */
  params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** The `/verbose` level of a session that set none (default `off`). */
  verboseDefault: Type.Optional(stringEnum(["off", "on", "full"])),
  /** How `/verbose` summaries and progress-draft tool lines show a tool call: `explain` (default) a compact label, `raw` the label and its arguments. */
  toolProgressDetail: Type.Optional(stringEnum(["explain", "raw"])),
  /** The `/reasoning` level of a session that set none, for the owner's messages (default `off`). */
  reasoningDefault: Type.Optional(ReasoningLevel),
  /** The `/elevated` level of a session that set none, for senders `tools.elevated` admits (default `on`). */
  elevatedDefault: Type.Optional(stringEnum(["off", "on", "ask", "full"])),
  /** Limits on what the runtime puts into a turn: `memoryGetMaxChars`, the most one `memory_get` returns (12,000 when unset). */
  contextLimits: Type.Optional(ContextLimits),
  /** The user's IANA time zone: the system prompt's date and time, heartbeat windows without their own zone. Unset: the host's. */
  userTimezone: Type.Optional(NonEmptyString),
  skills: Type.Optional(StringList),
  subagents: Type.Optional(SubagentLimits),
  /** Caps every model's context window (tokens) when smaller. */
  contextTokens: Type.Optional(integer(1)),
  compaction: Type.Optional(Compaction),
  contextPruning: Type.Optional(ContextPruning),
  contextWindowGuard: Type.Optional(ContextWindowGuard),
  heartbeat: Type.Optional(DefaultHeartbeatSchema),
  sandbox: Type.Optional(SandboxSettings),
  /** When a chat's typing indicator starts (default: `instant` for DMs and mentions, `message` for other group messages). */
  typingMode: Type.Optional(TypingMode),
  /** The typing indicator's refresh cadence where a channel sets none (default 6). */
  typingIntervalSeconds: Type.Optional(integer(0, 60)),
  /** `on`: replies go to chats in blocks while the model writes (Telegram; other channels also need `streaming.block.enabled: true`). */
  blockStreamingDefault: Type.Optional(stringEnum(["on", "off"])),
  /** `text_end` (default): a block goes out as soon as it is cut; `message_end`: once the model's message is complete. */
  blockStreamingBreak: Type.Optional(stringEnum(["text_end", "message_end"])),
  blockStreamingChunk: Type.Optional(
    Type.Object({
      minChars: Type.Optional(integer(1, 100_000)),
      maxChars: Type.Optional(integer(1, 100_000)),
      breakPreference: Type.Optional(stringEnum(["paragraph", "newline", "sentence"])),
    }),
  ),
  blockStreamingCoalesce: Type.Optional(BlockStreamingCoalesce),
  /** The first model run after `/new` or `/reset` is offered the recent daily notes (`memory/YYYY-MM-DD*.md`). */
  startupContext: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Type.Boolean()),
      applyOn: Type.Optional(Type.Array(stringEnum(["new", "reset"]))),
      dailyMemoryDays: Type.Optional(integer(1, 31)),
      maxFileBytes: Type.Optional(integer(1, 1_048_576)),
      maxFileChars: Type.Optional(integer(1, 100_000)),
      maxTotalChars: Type.Optional(integer(1, 100_000)),
    }),
  ),
  humanDelay: Type.Optional(HumanDelay),
});

// Shared by both spellings of the agent list; only the array form must carry its id.
const agentEntryFields = {
  default: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String()),
  workspace: Type.Optional(Type.String()),
  model: Type.Optional(ModelRef),
  /** Replaces `agents.defaults.modelPolicy` for this agent when its `allow` is non-empty. */
  modelPolicy: Type.Optional(ModelPolicy),
  skills: Type.Optional(StringList),
  identity: Type.Optional(AgentIdentity),
  tools: Type.Optional(AgentTools),
  /** This agent's model parameters per model ref, over every other layer but its own `params`. */
  models: Type.Optional(Type.Record(Type.String(), Type.Object({ params: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }))),
  /** This agent's model parameters for every model it uses: the last layer. */
  params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  subagents: Type.Optional(AgentSubagents),
  /** This agent's heartbeat, key by key over `agents.defaults.heartbeat`. When any agent has one, only those agents beat. */
  heartbeat: Type.Optional(HeartbeatSchema),
  /** Each key replaces the `agents.defaults.sandbox` one. */
  sandbox: Type.Optional(SandboxSettings),
  /** This agent's `typingMode`, in place of `agents.defaults.typingMode`. */
  typingMode: Type.Optional(TypingMode),
  /** This agent's `humanDelay`, in place of `agents.defaults.humanDelay`. */
  humanDelay: Type.Optional(HumanDelay),
  /** This agent's `reasoningDefault`, in place of `agents.defaults.reasoningDefault`. */
  reasoningDefault: Type.Optional(ReasoningLevel),
  /** This agent's `toolProgressDetail`, in place of `agents.defaults.toolProgressDetail`. */
  toolProgressDetail: Type.Optional(stringEnum(["explain", "raw"])),
  /** This agent's `contextLimits`, key by key over `agents.defaults.contextLimits`. */
  contextLimits: Type.Optional(ContextLimits),
  /** In groups routed to this agent, text matching one of these (case-insensitive regexes) counts as a mention, in place of `messages.groupChat.mentionPatterns`. */
  groupChat: Type.Optional(
    Type.Object({
      mentionPatterns: Type.Optional(Type.Array(Type.String())),
      /** This agent's `messages.groupChat.historyLimit`, in its place (a channel's or account's own still wins). */
      historyLimit: Type.Optional(integer(0, 1_000)),
      /** This agent's `messages.groupChat.unmentionedInbound`, in its place. */
      unmentionedInbound: Type.Optional(stringEnum(["room_event", "user_request"])),
    }),
  ),
};

export const AgentListEntrySchema = Type.Object({ id: AgentId, ...agentEntryFields });
export const AgentKeyedEntrySchema = Type.Object({ id: Type.Optional(AgentId), ...agentEntryFields });

export const AgentsSchema = Type.Object({
  defaults: Type.Optional(AgentsDefaults),
  /** Legacy array spelling: `[{ id: "main", default: true, ... }]`. */
  list: Type.Optional(Type.Array(AgentListEntrySchema)),
  /** Current spelling: `{ main: { ... } }`, keyed by agent id. */
  entries: Type.Optional(Type.Record(Type.String(), AgentKeyedEntrySchema)),
});
