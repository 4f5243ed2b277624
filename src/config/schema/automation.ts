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
