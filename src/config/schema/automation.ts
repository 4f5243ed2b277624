import { Type } from "@sinclair/typebox";
import { integer, NonEmptyString } from "./primitives.js";

/** Scheduled jobs inside the gateway (docs/automation.md). */
export const CronSchema = Type.Object({
  /** false: no job runs and cron.* methods refuse (also OPENCLAW_SKIP_CRON=1). Default true. */
  enabled: Type.Optional(Type.Boolean()),
  /** Runs at the same time across all jobs (default 1); the rest wait their turn. */
  maxConcurrentRuns: Type.Optional(integer(1, 64)),
  /** Bearer token sent with webhook deliveries. */
  webhookToken: Type.Optional(NonEmptyString),
  /** Let webhook deliveries reach private, loopback and link-local addresses (default false). */
  webhookAllowPrivateNetwork: Type.Optional(Type.Boolean()),
});

const Duration = Type.String({ pattern: "^(\\d+(ms|s|m|h|d))+$" });

/** A periodic agent turn in the main session (docs/automation.md#heartbeat). */
export const HeartbeatSchema = Type.Object({
  /** `30m` by default; `0m` turns it off. */
  every: Type.Optional(Object.assign(Duration, { expected: "a duration such as 30m, 1h or 0m (off)" })),
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
  /** Where a reply that is not an ack goes: `none` (default), `last` (the main session's last chat) or a channel id with `to`. */
  target: Type.Optional(NonEmptyString),
  to: Type.Optional(NonEmptyString),
  accountId: Type.Optional(NonEmptyString),
  /** Replaces the built-in heartbeat prompt. */
  prompt: Type.Optional(NonEmptyString),
  lightContext: Type.Optional(Type.Boolean()),
  /** Run each heartbeat in a fresh `heartbeat` session instead of the main one. */
  isolatedSession: Type.Optional(Type.Boolean()),
  /** A reply with HEARTBEAT_OK at its start or end is dropped when at most this many characters remain (default 300). */
  ackMaxChars: Type.Optional(integer(0, 20_000)),
});
