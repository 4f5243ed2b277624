import { Option, type Command } from "commander";
import { PROVENANCE_MODES } from "../acp/bridge/types.js";

/**
 * `openclaw acp` (the gateway as an ACP agent on stdio, for IDEs) and `openclaw acp client`
 * (a terminal ACP client for any agent). Each action imports its module on demand.
 */
export function registerAcpCommand(program: Command): Command {
  const acp = program
    .command("acp")
    .description("serve the gateway as an ACP agent on stdio (for Zed, acpx and other ACP clients)")
    .option("--url <url>", "gateway WebSocket URL (default: the local gateway)")
    .option("--port <port>", "gateway port")
    .option("--token <token>", "gateway token (visible in process listings: prefer --token-file or OPENCLAW_GATEWAY_TOKEN)")
    .option("--token-file <path>", "read the gateway token from this file")
    .option("--password <password>", "gateway password (prefer --password-file or OPENCLAW_GATEWAY_PASSWORD)")
    .option("--password-file <path>", "read the gateway password from this file")
    .option("--session <key>", "gateway session every IDE session uses (default: a new acp-bridge:<uuid> per session)")
    .option("--session-label <label>", "like --session, naming the session by its label")
    .option("--require-existing", "fail when --session / --session-label names no existing session")
    .option("--reset-session", "reset the gateway session (new transcript) when the IDE opens it")
    .option("--no-prefix-cwd", "do not start prompts with [Working directory: …]")
    .addOption(new Option("--provenance <mode>", "tell the gateway where prompts come from (needs operator.admin)").choices(PROVENANCE_MODES).default("off"))
    .option("-v, --verbose", "log bridge activity to stderr")
    .action(async (opts) => {
      const { acpBridgeCommand } = await import("./acp-bridge-command.js");
      await acpBridgeCommand(opts);
    });

  acp
    .command("client")
    .description("drive an ACP agent from the terminal: prompts from stdin, streamed replies to stdout")
    .argument("[command...]", "the agent command after -- (default: this openclaw's `acp`)")
    .option("--cwd <dir>", "the session's working directory", process.cwd())
    // commander reads the `acp` command's options after `client` too: -v is the client's verbose,
    // and without a command the bridge options go to the `openclaw acp` it starts.
    .addHelpText(
      "after",
      "\nAlso: -v, --verbose  log protocol activity to stderr; without a command, the `openclaw acp` options\n(--url, --token-file, --session, …) are passed to the bridge it starts.",
    )
    .action(async (command: string[], _opts, cmd: Command) => {
      const { acpClientCommand } = await import("./acp-client-command.js");
      await acpClientCommand(command, cmd.optsWithGlobals());
    });
  return acp;
}
