import type { Command } from "commander";

/**
 * The operator's commands for setting up and looking after an installation: doctor, security
 * audit (and, as they land, logs, dashboard, service install, completion, onboard, devices).
 */
export function registerOpsCommands(program: Command): void {
  program
    .command("doctor")
    .description("check this installation (node, config, permissions, port, provider, channels, memory, ACP) and say how to fix it")
    .option("--fix", "apply the safe repairs (file modes, stale lock/pid files, a missing state dir) and say what changed")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { doctorCommand } = await import("./doctor-command.js");
      await doctorCommand(opts);
    });

  program
    .command("security")
    .description("security checks")
    .command("audit")
    .description("findings about access, exposure and secrets, with severity and fix (exit 1 on critical)")
    .option("--deep", "also probe the running gateway without credentials")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { securityAuditCommand } = await import("./security-audit-command.js");
      await securityAuditCommand(opts);
    });
}
