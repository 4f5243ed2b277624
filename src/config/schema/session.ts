import { Type } from "@sinclair/typebox";
import { BYTE_SIZE_PATTERN } from "../../infra/byte-size.js";
import { DURATION_PATTERN } from "../../infra/duration.js";
import { integer, stringEnum, withExpected } from "./primitives.js";

/** A duration as the parser reads it, with an example in the refusal. */
const Duration = (example: string) =>
  withExpected(Type.String({ pattern: DURATION_PATTERN }), `a duration such as ${example}, 12h or 90m: units d, h, m, s, ms, largest first, each once`);

/** A size in bytes: a number, or a number with b, kb, mb, gb or tb (powers of 1024). */
const ByteSize = (example: string) =>
  Type.Union([integer(0), withExpected(Type.String({ pattern: BYTE_SIZE_PATTERN }), `a size such as ${example} or 10gb: a number and b, kb, mb, gb or tb`)]);

const SessionReset = Type.Object({
  mode: Type.Optional(stringEnum(["none", "daily", "idle"])),
  atHour: Type.Optional(integer(0, 23)),
  idleMinutes: Type.Optional(integer(1)),
});

/**
 * The main session's name ends its key (`agent:<agentId>:<mainKey>`), so it obeys the rules every
 * session key does (src/sessions/keys/session-key-rules.ts): no control character or backslash,
 * no "." or ".." part, no empty ":" part.
 */
const MainKey = withExpected(
  Type.String({ pattern: "^(?!\\s*$)(?!.*(?:^|[:/])\\.{1,2}(?:[:/]|$))(?!.*::)(?!:)(?!.*:$)[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\\\]{1,128}$" }),
  'a session name of 1-128 characters: no control character or backslash, no "." or ".." part, no empty ":" part',
);

const SendPolicyAction = stringEnum(["allow", "deny"]);

/** Chats the gateway may not send into (src/sessions/send-policy.ts): rules in order, the first deny wins. */
const SendPolicySchema = Type.Object({
  rules: Type.Optional(
    Type.Array(
      Type.Object({
        action: SendPolicyAction,
        match: Type.Optional(
          Type.Object({
            channel: Type.Optional(Type.String({ minLength: 1 })),
            chatType: Type.Optional(stringEnum(["direct", "group", "channel"])),
            keyPrefix: Type.Optional(Type.String({ minLength: 1 })),
            rawKeyPrefix: Type.Optional(Type.String({ minLength: 1 })),
          }),
        ),
      }),
      { maxItems: 200 },
    ),
  ),
  default: Type.Optional(SendPolicyAction),
});

export const SessionSchema = Type.Object({
  scope: Type.Optional(stringEnum(["per-sender", "global"])),
  dmScope: Type.Optional(stringEnum(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])),
  mainKey: Type.Optional(MainKey),
  /** `per-group` (default): each group or channel its own session; `main`: their messages join the main session. */
  groupScope: Type.Optional(stringEnum(["per-group", "main"])),
  /**
   * One person's DMs on several channels as one session under a per-peer `dmScope`: a canonical
   * id and the `<channel>:<sender id>` peers it stands for (`alice: ["telegram:123", "discord:456"]`).
   */
  identityLinks: Type.Optional(
    Type.Record(Type.String(), Type.Array(withExpected(Type.String({ pattern: "^[a-z][a-z0-9_-]*:\\S+$" }), 'a peer written "<channel>:<sender id>", e.g. "telegram:123"'))),
  ),
  reset: Type.Optional(SessionReset),
  /** A reset policy per kind of chat, in place of `reset` for sessions of that kind (OpenClaw's older `dm` is read as `direct`). */
  resetByType: Type.Optional(Type.Object({ direct: Type.Optional(SessionReset), group: Type.Optional(SessionReset), thread: Type.Optional(SessionReset) })),
  /** A reset policy per channel (`telegram`, `discord`, `slack`), in place of `resetByType` and `reset` for that channel's sessions. */
  resetByChannel: Type.Optional(Type.Record(Type.String({ minLength: 1 }), SessionReset)),
  /** How the session store is kept bounded: sessions idle past `pruneAfter`, and beyond `maxEntries` per agent, are archived (`warn`: only reported). */
  maintenance: Type.Optional(
    Type.Object({
      mode: Type.Optional(stringEnum(["enforce", "warn"])),
      pruneAfter: Type.Optional(Duration("30d")),
      maxEntries: Type.Optional(integer(1)),
      /** Chat sessions active within this window are kept by `pruneAfter` and `maxEntries` (`false`: no protection). */
      preserveRecent: Type.Optional(Type.Union([Duration("7d"), Type.Literal(false)])),
      /** Reset and deleted transcript archives older than this are removed (`false` or unset: kept until the disk budget needs the room). */
      resetArchiveRetention: Type.Optional(Type.Union([Duration("30d"), Type.Literal(false)])),
      /** Each agent's sessions folder past this size loses its oldest archives (`0` or `false`: no budget). */
      maxDiskBytes: Type.Optional(Type.Union([ByteSize("500mb"), Type.Literal(false)])),
      /** Where a disk-budget cleanup stops: default 80% of `maxDiskBytes`. */
      highWaterBytes: Type.Optional(ByteSize("400mb")),
    }),
  ),
  /**
   * Phrases that start a new session as `/new` does when a message is the phrase, or starts with it
   * and a space (any case): the rest of the message is the new session's first message (its first
   * word chooses a model when it names one). `/new` and `/reset` work whatever this lists.
   */
  resetTriggers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: "\\S" }), { maxItems: 32 })),
  sendPolicy: Type.Optional(SendPolicySchema),
  /** Chat threads bound to a sub-agent's session (`/focus`, `sessions_spawn` with `thread: true`). */
  threadBindings: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Type.Boolean()),
      idleHours: Type.Optional(Type.Number({ minimum: 0 })),
      maxAgeHours: Type.Optional(Type.Number({ minimum: 0 })),
      spawnSessions: Type.Optional(Type.Boolean()),
      /** What a thread-bound sub-agent starts with when its spawn names no `context`: `fork` (a copy of the conversation) or `isolated`. */
      defaultSpawnContext: Type.Optional(stringEnum(["fork", "isolated"])),
    }),
  ),
  /** Reply-back turns of a `sessions_send` exchange between two sessions. */
  agentToAgent: Type.Optional(Type.Object({ maxPingPongTurns: Type.Optional(integer(0, 5)) })),
});
