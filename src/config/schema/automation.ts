import { Type } from "@sinclair/typebox";
import { DURATION_PATTERN } from "../../infra/duration.js";
import { integer, NonEmptyString, stringEnum, withExpected } from "./primitives.js";

/** Scheduled jobs inside the gateway (docs/automation.md). */
export const CronSchema = Type.Object({
  /** false: no job runs and cron.* methods refuse (also OPENCLAW_SKIP_CRON=1). Default true. */
  enabled: Type.Optional(Type.Boolean()),
  /** Runs at the same time across all jobs (default 1); the rest wait their turn. */
  maxConcurrentRuns: Type.Optional(integer(1, 64)),
  /**
   * How long the transcripts of a job's earlier isolated runs are kept (default `24h`), removed by
   * the hourly session maintenance; `false` or a zero duration keeps them all.
   */
  sessionRetention: Type.Optional(
    Type.Union([
      withExpected(Type.String({ pattern: DURATION_PATTERN }), "a duration such as 24h, 7d or 1h30m: units d, h, m, s, ms, largest first, each once"),
      Type.Literal(false),
    ]),
  ),
  /** Bearer token sent with webhook deliveries. */
  webhookToken: Type.Optional(NonEmptyString),
  /** Where webhook deliveries may go: private, loopback and link-local addresses are refused unless allowed here. */
  webhookSsrfPolicy: Type.Optional(
    Type.Object({
      /** Exact host names (or addresses) allowed even when they are private. */
      allowedHostnames: Type.Optional(Type.Array(NonEmptyString)),
      /** Exact hosts, or `*.example.com` for its subdomains, refused before anything else. */
      blockedHostnames: Type.Optional(Type.Array(NonEmptyString)),
      dangerouslyAllowPrivateNetwork: Type.Optional(Type.Boolean()),
    }),
  ),
  /** Where a job that keeps failing is reported in a chat when it announces to none of its own. */
  failureAlert: Type.Optional(
    Type.Object({
      /** false: failures are only logged and broadcast, never sent to a chat. Default true. */
      enabled: Type.Optional(Type.Boolean()),
      channel: Type.Optional(NonEmptyString),
      to: Type.Optional(NonEmptyString),
      accountId: Type.Optional(NonEmptyString),
    }),
  ),
});

const HeartbeatInterval = withExpected(Type.String({ pattern: DURATION_PATTERN }), "a duration such as 30m, 1h30m or 0m (off): units d, h, m, s, ms, largest first, each once");

/** A periodic agent turn in the main session (docs/automation.md#heartbeat). */
export const HeartbeatSchema = Type.Object({
  /** `30m` by default; `0m` turns it off. */
  every: Type.Optional(HeartbeatInterval),
  /** Only between these local times (HH:MM, 24h); `end` may be before `start` for a window over midnight. */
  activeHours: Type.Optional(
    Type.Object({
      start: Type.String({ pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" }),
      end: Type.String({ pattern: "^([01]\\d|2[0-4]):[0-5]\\d$" }),
      timezone: Type.Optional(NonEmptyString),
    }),
  ),
  /** `provider/model` for heartbeat turns. */
  model: Type.Optional(NonEmptyString),
  /** Where a reply that is not an ack goes: `none` (default), `last` (the main session's last chat), `owner` (the owner's DM) or a channel id with `to`. */
  target: Type.Optional(NonEmptyString),
  to: Type.Optional(NonEmptyString),
  accountId: Type.Optional(NonEmptyString),
  /** Replaces the built-in heartbeat prompt. */
  prompt: Type.Optional(NonEmptyString),
  lightContext: Type.Optional(Type.Boolean()),
  /** The beat's turn is aborted after this many seconds (0: no limit). Default: `agents.defaults.timeoutSeconds` when set, else the interval capped at 600. */
  timeoutSeconds: Type.Optional(integer(0)),
  /** The session beats run in (a key of this agent, `agent:<id>:…` or bare); `main` or unset: the agent's main session. */
  session: Type.Optional(NonEmptyString),
  /** `block`: a reply never goes to a DM (an `owner` target, a `last` chat that is one, a user's id); default `allow`. */
  directPolicy: Type.Optional(stringEnum(["allow", "block"])),
  /** Run each heartbeat in a fresh session of its own (`<session>:heartbeat`; for the main session `heartbeat`). */
  isolatedSession: Type.Optional(Type.Boolean()),
  /** A reply with HEARTBEAT_OK at its start or end is dropped when at most this many characters remain (default 300). */
  ackMaxChars: Type.Optional(integer(0, 20_000)),
});
/** `agents.defaults.heartbeat`: the shared settings, and which agent beats when no agent has a block of its own. */
export const DefaultHeartbeatSchema = Type.Composite([
  HeartbeatSchema,
  Type.Object({
    /** The one agent that beats with these settings when no agent has a `heartbeat` block of its own (default: the default agent). */
    agentId: Type.Optional(Type.String({ minLength: 1 })),
  }),
]);

/** One `POST <hooks.path>/<name>` route: what a matching request does. */
const HookMapping = Type.Object({
  match: Type.Object({
    /** The `<name>` after the hooks path. */
    path: Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }),
    /** Only requests whose JSON body has this `source`. */
    source: Type.Optional(NonEmptyString),
  }),
  action: Type.Union([Type.Literal("agent"), Type.Literal("wake")]),
  name: Type.Optional(NonEmptyString),
  agentId: Type.Optional(NonEmptyString),
  /** Template for the session key, e.g. `hook:gmail:{{messages[0].id}}`; default a fresh `hook:<uuid>`. */
  sessionKey: Type.Optional(NonEmptyString),
  /** `isolated` (default): each run in a fresh session under the key; `persistent`: runs share the key's session. */
  sessionMode: Type.Optional(Type.Union([Type.Literal("isolated"), Type.Literal("persistent")])),
  /** Template for the agent's message (action agent) or the wake text (action wake), e.g. `New mail from {{from}}: {{subject}}`. */
  messageTemplate: Type.Optional(NonEmptyString),
  wakeMode: Type.Optional(Type.Union([Type.Literal("now"), Type.Literal("next-heartbeat")])),
  deliver: Type.Optional(Type.Boolean()),
  channel: Type.Optional(NonEmptyString),
  to: Type.Optional(NonEmptyString),
  model: Type.Optional(NonEmptyString),
});

/** HTTP webhooks on the gateway's port (docs/automation.md#webhooks). */
export const HooksSchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  /** Required when enabled; must differ from the gateway token. Sent as `Authorization: Bearer …` or `x-openclaw-token`. */
  token: Type.Optional(NonEmptyString),
  /** Where the routes live (default `/hooks`; not `/`). Read at start. */
  path: Type.Optional(Type.String({ pattern: "^/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]$" })),
  /** Largest request body accepted (default 262144 bytes). Read at start. */
  maxBodyBytes: Type.Optional(integer(1_024, 16 * 1024 * 1024)),
  mappings: Type.Optional(Type.Array(HookMapping)),
  /** Let a request name its own `sessionKey` (default false). */
  allowRequestSessionKey: Type.Optional(Type.Boolean()),
  /** When requests may name a session key: only keys starting with one of these. */
  allowedSessionKeyPrefixes: Type.Optional(Type.Array(NonEmptyString)),
  /**
   * The agents a webhook may run or wake (the one it names, its session key's, or the default
   * agent when it names none); `"*"` or unset: any. An empty list admits none.
   */
  allowedAgentIds: Type.Optional(Type.Array(NonEmptyString)),
  /** Session for `/hooks/agent` requests that name none (default a fresh `hook:<uuid>` each). */
  defaultSessionKey: Type.Optional(NonEmptyString),
  /** File-based hooks run on gateway events (docs/automation.md#internal-hooks). */
  internal: Type.Optional(
    Type.Object({
      /** false: no internal hook runs (default true; each hook still needs its own entry). */
      enabled: Type.Optional(Type.Boolean()),
      /** `<name>: { enabled: true }` turns a discovered hook on; every hook is off until enabled. */
      entries: Type.Optional(Type.Record(Type.String(), Type.Object({ enabled: Type.Optional(Type.Boolean()) }))),
      load: Type.Optional(Type.Object({ extraDirs: Type.Optional(Type.Array(NonEmptyString)) })),
      /** Time a handler may take before it is stopped (default 5000 ms). */
      timeoutMs: Type.Optional(integer(100, 120_000)),
    }),
  ),
});
