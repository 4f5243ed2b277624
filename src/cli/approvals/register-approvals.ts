import { Argument, type Command } from "commander";

/** The answers an exec approval takes, as OpenClaw names them. */
export const APPROVAL_DECISIONS = ["allow-once", "allow-always", "deny"] as const;

/**
 * `openclaw approvals` (alias `exec-approvals`, as OpenClaw): the running gateway's exec policy,
 * the approvals waiting for an answer, answering one, and taking back an agent's allow-always
 * grants. Every subcommand talks to the gateway; there are no nodes here, so `get` always reads
 * the gateway's own policy. The policy itself is `tools.exec` in the config (`openclaw config set`).
 */
export function registerApprovalsCommands(program: Command, withClientFlags: (cmd: Command) => Command): void {
  const approvals = program
    .command("approvals")
    .alias("exec-approvals")
    .description("the gateway's exec policy and allow-always grants, and the exec approvals waiting for an answer");

  withClientFlags(approvals.command("get").description("the exec policy (tools.exec) and each agent's allow-always grants, from the gateway")).action(async (opts) => {
    const { approvalsGetCommand } = await import("./approvals-get.js");
    await approvalsGetCommand(opts);
  });

  withClientFlags(approvals.command("pending").description("the exec approvals waiting for an answer, newest first")).action(async (opts) => {
    const { approvalsPendingCommand } = await import("./approvals-pending.js");
    await approvalsPendingCommand(opts);
  });

  withClientFlags(
    approvals
      .command("resolve")
      .description("answer a pending exec approval")
      .argument("<id>", "the approval's id (`openclaw approvals pending`)")
      .addArgument(new Argument("<decision>", "the answer").choices([...APPROVAL_DECISIONS])),
  )
    .option("--reason <text>", "a note for this command's confirmation only (not sent to the gateway)")
    .action(async (id: string, decision: (typeof APPROVAL_DECISIONS)[number], opts) => {
      const { approvalsResolveCommand } = await import("./approvals-resolve.js");
      await approvalsResolveCommand(id, decision, opts);
    });

  const allowlist = approvals.command("allowlist").description("take back an agent's allow-always grants (the shared allowlist is tools.exec.allowlist in the config)");
  withClientFlags(allowlist.command("remove <pattern>").description("take back the agent's allow-always grants of this program: it asks again"))
    .option("--agent <id>", 'the agent holding the grants (default "*", the shared allowlist, which is changed in the config)')
    .action(async (pattern: string, opts) => {
      const { approvalsAllowlistRemoveCommand } = await import("./approvals-allowlist-remove.js");
      await approvalsAllowlistRemoveCommand(pattern, opts);
    });
}
