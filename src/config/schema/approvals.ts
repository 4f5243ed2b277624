import { Type } from "@sinclair/typebox";
import { NonEmptyString, StringList, stringEnum } from "./primitives.js";

/** One chat an approval prompt is also sent to. */
const ApprovalTarget = Type.Object({
  channel: stringEnum(["telegram", "discord", "slack"]),
  /** A Telegram chat id, channel:<id> / user:<id> (Discord, Slack), as the message tool takes it. */
  to: NonEmptyString,
  accountId: Type.Optional(NonEmptyString),
  threadId: Type.Optional(NonEmptyString),
});

/**
 * `approvals.exec`: where exec approval prompts go, answered there with `/approve`. Without it (or
 * for an approval its filters leave out) the chat the run came from gets the prompt. OpenClaw's
 * `approvals.plugin` is an unknown key: this gateway has no plugin approvals.
 */
export const ApprovalsSchema = Type.Object({
  exec: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Type.Boolean()),
      /** session (default): the chat the run came from; targets: only `targets`; both: that chat and `targets`. */
      mode: Type.Optional(stringEnum(["session", "targets", "both"])),
      /** Only approvals of these agents are forwarded to the targets. */
      agentFilter: Type.Optional(StringList),
      /** Only approvals whose session key contains one of these (or matches it as /regex/). */
      sessionFilter: Type.Optional(StringList),
      targets: Type.Optional(Type.Array(ApprovalTarget)),
    }),
  ),
});
