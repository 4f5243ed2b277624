import type { Command } from "commander";

/**
 * `openclaw agents list`: the configured agents, read from the
 * local config file (no gateway needed). Bare `openclaw agents` is `agents list`, as in OpenClaw.
 */
export function registerAgentsCommands(agents: Command): void {
  agents
    .command("list", { isDefault: true })
    .description("each agent: id, name, default, workspace, model and routing rules (from the local config)")
    .option("--bindings", "also list each routing binding's match")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { agentsListCommand } = await import("./agents-list-command.js");
      agentsListCommand(opts);
    });
}
