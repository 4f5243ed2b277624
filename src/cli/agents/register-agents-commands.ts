import type { Command } from "commander";

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `openclaw agents list|add|delete|bindings|bind|unbind|set-identity`: OpenClaw's agent commands,
 * reading and editing the local config file (no gateway needed); a running gateway applies an
 * edit at its config reload. Bare `openclaw agents` is `agents list`, as in OpenClaw.
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

  agents
    .command("add")
    .description("add an agent (agents.entries.<id>) with its workspace and routing bindings")
    .argument("[name]", "the agent's name; its id is the name in lower case")
    .option("--workspace <dir>", "the agent's workspace (created and seeded when missing)")
    .option("--model <ref>", "its model: provider/model, an alias, or a model id one provider lists")
    .option("--bind <channel[:accountId]>", "route a channel's account to it (repeatable; channel:* every account)", collect)
    .option("--non-interactive", "never ask (a name and --workspace are then required)")
    .option("--json", "print JSON")
    .option("--role <role>", "OpenClaw's role templates: not supported here (refused)")
    .option("--agent-dir <dir>", "OpenClaw's per-agent state dir: not supported here (refused)")
    .action(async (name: string | undefined, opts) => {
      const { agentsAddCommand } = await import("./agents-add-command.js");
      await agentsAddCommand(name, opts);
    });

  agents
    .command("delete")
    .description("remove an agent and its routing bindings from the config (its files are kept)")
    .argument("<id>", "the agent's id")
    .option("--force", "do not ask for confirmation (required without a terminal)")
    .option("--json", "print JSON")
    .action(async (id: string, opts) => {
      const { agentsDeleteCommand } = await import("./agents-delete-command.js");
      await agentsDeleteCommand(id, opts);
    });

  agents
    .command("bindings")
    .description("list the routing bindings (bindings[] that route chats to an agent)")
    .option("--agent <id>", "only this agent's")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { agentsBindingsCommand } = await import("./agents-bindings-commands.js");
      agentsBindingsCommand(opts);
    });

  agents
    .command("bind")
    .description("route channel accounts to an agent")
    .option("--agent <id>", "the agent (default: the default agent)")
    .option("--bind <channel[:accountId]>", "channel:account, channel:* (every account) or channel (the account named default); repeatable", collect)
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { agentsBindCommand } = await import("./agents-bindings-commands.js");
      agentsBindCommand(opts);
    });

  agents
    .command("unbind")
    .description("remove an agent's routing bindings")
    .option("--agent <id>", "the agent (default: the default agent)")
    .option("--bind <channel[:accountId]>", "the binding to remove; repeatable", collect)
    .option("--all", "remove all of the agent's routing bindings")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { agentsUnbindCommand } = await import("./agents-bindings-commands.js");
      agentsUnbindCommand(opts);
    });

  agents
    .command("set-identity")
    .description("set an agent's identity (agents.entries.<id>.identity) from flags or its IDENTITY.md")
    .option("--agent <id>", "the agent (default: the one whose workspace is --workspace, the identity file's folder or the current directory)")
    .option("--workspace <dir>", "find the agent and its IDENTITY.md by this workspace")
    .option("--identity-file <path>", "read the identity from this file")
    .option("--from-identity", "read the workspace's IDENTITY.md (also when no field flag is given)")
    .option("--name <name>", "the name it presents in chats")
    .option("--emoji <emoji>", "its emoji")
    .option("--avatar <value>", "its avatar: an image path or URL")
    .option("--theme <theme>", "OpenClaw's identity theme: not supported here (refused)")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { agentsSetIdentityCommand } = await import("./agents-set-identity-command.js");
      agentsSetIdentityCommand(opts);
    });

  // OpenClaw's `agents team create` builds a team from role templates, which this gateway does not have.
  agents
    .command("team", { hidden: true })
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      const { CliError } = await import("../output.js");
      throw new CliError("agents team is not supported: this gateway has no role templates. Add each agent with openclaw agents add <name> --workspace <dir>.");
    });
}
