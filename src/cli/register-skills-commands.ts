import type { Command } from "commander";

const AGENT_HELP = "agent whose workspace and allowlist to use (default: the default agent)";

/**
 * `openclaw skills list|info|check`: the skills status computed locally from the config and the
 * agent's workspace (docs/skills.md). Bare `openclaw skills` is `skills list`, as in OpenClaw.
 */
export function registerSkillsCommands(program: Command): Command {
  const skills = program.command("skills").description("list and inspect the skills agents are offered (docs/skills.md)");
  skills
    .command("list", { isDefault: true })
    .description("every skill the agent could be offered: status, description, source")
    .option("--agent <id>", AGENT_HELP)
    .option("--eligible", "only the skills ready for this agent")
    .option("-v, --verbose", "add a column with what each skill is missing")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { skillsListCommand } = await import("./skills-command.js");
      await skillsListCommand(opts);
    });
  skills
    .command("info <name>")
    .description("one skill: status, details, each requirement met or missing, how to make it ready")
    .option("--agent <id>", AGENT_HELP)
    .option("--json", "print JSON")
    .action(async (name, opts) => {
      const { skillsInfoCommand } = await import("./skills-command.js");
      await skillsInfoCommand(name, opts);
    });
  skills
    .command("check")
    .description("how many skills are ready, visible, disabled, blocked or missing requirements, and which")
    .option("--agent <id>", AGENT_HELP)
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { skillsCheckCommand } = await import("./skills-command.js");
      await skillsCheckCommand(opts);
    });
  return skills;
}
