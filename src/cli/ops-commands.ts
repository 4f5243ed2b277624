import { Argument, Option, type Command } from "commander";
import { COMPLETION_SHELLS, LOGS_LEVEL_CHOICES } from "./ops-choices.js";

/**
 * The operator's commands for setting up and looking after an installation: doctor, security
 * audit (and, as they land, logs, dashboard, service install, completion, onboard, devices).
 */
export function registerOpsCommands(program: Command, withClientFlags: (cmd: Command) => Command): void {
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

  withClientFlags(program.command("logs").description("the gateway's log, through the gateway (logs.tail)"))
    .option("-f, --follow", "keep printing new lines until Ctrl-C")
    .addOption(new Option("--level <level>", "only lines at this level or above").choices([...LOGS_LEVEL_CHOICES]))
    .option("--limit <n>", "how many of the last lines to start with (1-5000)", "200")
    .action(async (opts) => {
      const { logsCommand } = await import("./logs-command.js");
      await logsCommand(opts);
    });

  // No network call: only the flags that say which gateway and which token.
  program
    .command("dashboard")
    .description("open the Control UI in the browser (and print its URL with the gateway token)")
    .option("--url <url>", "gateway WebSocket URL (default: ws://127.0.0.1:<port>)")
    .option("--port <port>", "gateway port")
    .option("--token <token>", "gateway token")
    .option("--json", "print JSON")
    .option("--no-open", "only print the URL")
    .action(async (opts) => {
      const { dashboardCommand } = await import("./dashboard-command.js");
      await dashboardCommand(opts);
    });

  const gateway = program.commands.find((cmd) => cmd.name() === "gateway");
  if (!gateway) throw new Error("the gateway command must be registered before the operator commands");
  gateway
    .command("install")
    .description("run the gateway as a service: systemd user unit (Linux) or launchd agent (macOS), restarted on failure")
    .option("--port <port>", "port the service's gateway listens on (default: as configured)")
    .option("--force", "rewrite an installed service")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { gatewayInstallCommand } = await import("./service/service-command.js");
      gatewayInstallCommand(opts);
    });
  gateway
    .command("uninstall")
    .description("stop the gateway service and remove it")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const { gatewayUninstallCommand } = await import("./service/service-command.js");
      gatewayUninstallCommand(opts);
    });

  program
    .command("completion")
    .description("print a shell completion script")
    .addArgument(new Argument("<shell>", "the shell").choices([...COMPLETION_SHELLS]))
    .action(async (shell: string) => {
      const { completionCommand } = await import("./completion-command.js");
      completionCommand(shell, program);
    });

  program
    .command("onboard")
    .description("first set-up: a commented config, the gateway token, and a provider check (interactive on a terminal)")
    .option("--non-interactive", "take every answer from the flags below (without it, only --port, --force and --skip-check apply)")
    .option("--provider <id>", "anthropic, openai, ollama (a local Ollama server, no key), or your own id (then --base-url and --api)")
    .option("--api-key-env <name>", "environment variable holding the provider's key (default: <PROVIDER>_API_KEY)")
    .option("--model <id>", "model id at the provider (default for anthropic: claude-sonnet-4-5, openai: gpt-4.1)")
    .option("--base-url <url>", "the provider's endpoint (needed for a provider that is not built in)")
    .option("--api <api>", "wire format: anthropic-messages, openai-completions, openai-responses or ollama")
    .option("--port <port>", "gateway port (default 18789)")
    .option("--force", "replace an existing config (the old file is kept as .bak)")
    .option("--skip-check", "write without asking the provider (offline set-up)")
    .option("--json", "print JSON (with --non-interactive)")
    .action(async (opts) => {
      const { onboardCommand } = await import("./onboard/onboard-command.js");
      await onboardCommand(opts);
    });

  const devices = program.command("devices").description("devices that connect with their own key and token instead of the shared secret");
  withClientFlags(devices.command("list").description("pending pairing requests and paired devices")).action(async (opts) => {
    const { devicesListCommand } = await import("./devices-command.js");
    await devicesListCommand(opts);
  });
  withClientFlags(devices.command("approve [requestId]").description("approve a pairing request; the device gets its token on its next connect"))
    .option("--latest", "approve the newest pending request")
    .action(async (requestId, opts) => {
      const { devicesApproveCommand } = await import("./devices-command.js");
      await devicesApproveCommand(requestId, opts);
    });
  withClientFlags(devices.command("reject <requestId>").description("refuse a pairing request")).action(async (requestId, opts) => {
    const { devicesRejectCommand } = await import("./devices-command.js");
    await devicesRejectCommand(requestId, opts);
  });
  withClientFlags(devices.command("revoke <deviceId>").description("unpair a device: its token stops working and its connections close")).action(async (deviceId, opts) => {
    const { devicesRevokeCommand } = await import("./devices-command.js");
    await devicesRevokeCommand(deviceId, opts);
  });
}
