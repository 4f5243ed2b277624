import { Type } from "@sinclair/typebox";
import { integer, NonEmptyString, stringEnum } from "./primitives.js";

const SessionReset = Type.Object({
  mode: Type.Optional(stringEnum(["none", "daily", "idle"])),
  atHour: Type.Optional(integer(0, 23)),
  idleMinutes: Type.Optional(integer(1)),
});

export const SessionSchema = Type.Object({
  scope: Type.Optional(stringEnum(["per-sender", "global"])),
  dmScope: Type.Optional(stringEnum(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])),
  mainKey: Type.Optional(NonEmptyString),
  reset: Type.Optional(SessionReset),
  /** Reply-back turns of a `sessions_send` exchange between two sessions. */
  agentToAgent: Type.Optional(Type.Object({ maxPingPongTurns: Type.Optional(integer(0, 5)) })),
});
