import { Command, Option } from "commander";
import { closestName } from "../infra/closest-name.js";
import { packageVersion } from "../infra/version.js";
import { registerAcpCommand } from "./acp-command.js";
import { registerAgentsCommands } from "./agents/register-agents-commands.js";
import { registerApprovalsCommands } from "./approvals/register-approvals.js";
import { registerBackupCommands } from "./backup/register-backup-commands.js";
import { registerModelsEditCommands } from "./models-edit-commands.js";
import { registerOpsCommands } from "./ops-commands.js";
import { registerSkillsCommands } from "./register-skills-commands.js";
import { AUTH_CHOICES, BIND_CHOICES, LOG_LEVEL_CHOICES } from "./gateway-run-args.js";

/**
 * The `openclaw` command. Each action imports its module on demand, so `openclaw --help`
 * loads only what it uses.
 */
const program = new Command("openclaw")
  .description("OpenClaw gateway: connects chat channels and API clients to LLM agents")
  .version(packageVersion(), "-V, --version")
  .addOption(new Option("--log-level <level>", "log level").choices(LOG_LEVEL_CHOICES))
  // Read from the command line before commander runs (root-options.ts); listed here for --help.
  .option("--dev", "dev profile: state in ~/.openclaw-dev, gateway port 19001")
  .option("--profile <name>", "named profile: state in ~/.openclaw-<name> (an explicit OPENCLAW_STATE_DIR wins)")
  .option("--no-color", "no ANSI colour in the output (as NO_COLOR=1)")
  .showHelpAfterError();

const gateway = program.command("gateway").description("run and manage the gateway daemon");

/** The global option the gateway commands take: `--log-level` (the others act before commander, root-options.ts). */
function globalLogLevel(): { logLevel?: string } {
  const { logLevel } = program.opts<{ logLevel?: string }>();
  return logLevel ? { logLevel } : {};
}

const withServerFlags = (cmd: Command) =>
  cmd
    .option("--port <port>", "port to listen on (default: OPENCLAW_GATEWAY_PORT, gateway.port, 18789)")
    .addOption(new Option("--bind <mode>", "bind mode").choices(BIND_CHOICES))
    .addOption(new Option("--auth <mode>", "auth mode").choices(AUTH_CHOICES))
    .option("--token <token>", "shared gateway token (default: OPENCLAW_GATEWAY_TOKEN)")
    .option("--password <password>", "shared gateway password (default: OPENCLAW_GATEWAY_PASSWORD)")
    .option("--allow-unconfigured", "start even when gateway.mode is not local");

/** The client flags; `timeout` replaces `--timeout`'s help and default for a command whose call may outlast the connect deadline. */
const withClientFlags = (cmd: Command, timeout: { help: string; default?: string } = { help: "give up after this many seconds", default: "10" }) =>
  cmd
    .option("--url <url>", "gateway WebSocket URL (default: ws://127.0.0.1:<port>)")
    .option("--port <port>", "gateway port")
    .option("--token <token>", "gateway token")
    .option("--password <password>", "gateway password")
    .option("--timeout <seconds>", timeout.help, timeout.default)
    .option("--json", "print JSON");

withServerFlags(gateway.command("run", { isDefault: true }).description("run the gateway in the foreground")).action(async (opts) => {
  const { gatewayRunCommand } = await import("./gateway-run.js");
  await gatewayRunCommand({ ...globalLogLevel(), ...opts });
});

withServerFlags(gateway.command("start").description("start the gateway in the background"))
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { gatewayStartCommand } = await import("./gateway-daemon.js");
    await gatewayStartCommand({ ...globalLogLevel(), ...opts });
  });

gateway
  .command("stop")
  .description("stop the running gateway")
  .option("--json", "print JSON")
  .option("--timeout <seconds>", "how long to wait for it to exit (default: its stop deadline plus 2 s, at least 10 s)")
  .action(async (opts) => {
    const { gatewayStopCommand } = await import("./gateway-daemon.js");
    await gatewayStopCommand(opts);
  });

withServerFlags(gateway.command("restart").description("stop, then start the gateway in the background"))
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { gatewayRestartCommand } = await import("./gateway-daemon.js");
    await gatewayRestartCommand({ ...globalLogLevel(), ...opts });
  });

withClientFlags(gateway.command("status").description("show pid, port and uptime of the running gateway")).action(async (opts) => {
  const { gatewayStatusCommand } = await import("./gateway-daemon.js");
  await gatewayStatusCommand(opts);
});

withClientFlags(gateway.command("call <method>").description("call a gateway RPC method"))
  .option("--params <json>", "method params as JSON", "{}")
  .option("--expect-final", "wait for the final response of two-stage methods")
  .action(async (method, opts) => {
    const { gatewayCallCommand } = await import("./gateway-call.js");
    await gatewayCallCommand(method, opts);
  });

withClientFlags(gateway.command("stability").description("the gateway's payload-free stability events (live, or a bundle a failed gateway left)"))
  .option("--limit <n>", "how many of the latest events to list (1-1000)", "25")
  .option("--type <type>", "only events of this type (payload.large, telemetry.exporter, message.received, …)")
  .option("--since-seq <seq>", "only events after this sequence number")
  .option("--bundle [file]", "read a persisted bundle instead of asking the gateway: latest (the default) or a bundle file")
  // OpenClaw's support .zip: refused by name rather than as an unknown option.
  .addOption(new Option("--export").hideHelp())
  .addOption(new Option("--output <path>").hideHelp())
  .action(async (opts) => {
    const { gatewayStabilityCommand } = await import("./gateway-stability-command.js");
    await gatewayStabilityCommand(opts);
  });

withClientFlags(gateway.command("health").description("query the gateway's health")).action(async (opts) => {
  const { healthCommand } = await import("./gateway-call.js");
  await healthCommand(opts);
});

withClientFlags(program.command("health").description("query the gateway's health")).action(async (opts) => {
  const { healthCommand } = await import("./gateway-call.js");
  await healthCommand(opts);
});

program
  .command("agent")
  .description("run one agent turn")
  .option("-m, --message <text>", "the message to send")
  .option("--agent <id>", "agent id (default: the default agent)")
  .option("--session-key <key>", "session to use (default: the agent's main session)")
  .option("--local", "run the turn in this process instead of through the gateway")
  .option("--url <url>", "gateway WebSocket URL")
  .option("--port <port>", "gateway port")
  .option("--token <token>", "gateway token")
  .option("--password <password>", "gateway password")
  .option("--timeout <seconds>", "give up after this many seconds (0 = none)", "600")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { agentCommand } = await import("./agent-command.js");
    await agentCommand(opts);
  });

// `openclaw tui`: the terminal chat client of a running gateway (docs/cli.md#tui).
program
  .command("tui")
  .description("chat with the gateway's agents in the terminal")
  .option("--url <url>", "gateway WebSocket URL (default: ws://127.0.0.1:<port>)")
  .option("--token <token>", "gateway token")
  .option("--password <password>", "gateway password")
  .option("--tls-fingerprint <sha256>", "expected SHA-256 fingerprint of a wss:// gateway's certificate")
  .option("--session <key>", "session key (default: main; a bare key is the default agent's)")
  .option("--deliver", "also deliver the replies to the session's chat channel")
  .option("--history-limit <n>", "history messages to load (default 200)")
  .option("--local", "OpenClaw's embedded mode: not supported here (refused)")
  .action(async (opts) => {
    const { tuiCommand } = await import("./tui-command.js");
    process.exit(await tuiCommand(opts));
  });

// `openclaw resume`: the TUI on a recent gateway session (docs/cli.md#openclaw-resume).
program
  .command("resume [query]")
  .description("open the TUI on a recent gateway session (picker, key/name/label query, or a Control UI handoff)")
  .option("--handoff <payload>", "session key and gateway URL copied from OpenClaw's Control UI")
  .option("--url <url>", "gateway WebSocket URL (default: ws://127.0.0.1:<port>)")
  .option("--token <token>", "gateway token")
  .option("--password <password>", "gateway password")
  .option("--tls-fingerprint <sha256>", "expected SHA-256 fingerprint of a wss:// gateway's certificate")
  .action(async (query, opts) => {
    const { resumeCommand } = await import("./resume-command.js");
    process.exit(await resumeCommand(query, opts));
  });

for (const alias of ["chat", "terminal"]) {
  program
    .command(alias)
    .description(`OpenClaw's \`tui --local\`: not supported here (refused; run \`openclaw tui\` with a gateway)`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      const { localModeRefusal } = await import("./tui-command.js");
      throw localModeRefusal(`openclaw ${alias}`);
    });
}

// `openclaw agents`: the configured agents and their bindings, read and edited in the local config (bare `agents` = `agents list`, as in OpenClaw).
registerAgentsCommands(program.command("agents").description("the configured agents and the bindings that route chats to them"));

const sessions = program.command("sessions").description("list, delete, compact and clean up conversation sessions (bare: sessions list)");

withClientFlags(sessions.command("list", { isDefault: true }).description("list conversation sessions"))
  .option("--agent <id>", "only this agent's sessions")
  .option("--limit <n>", "at most this many rows", "100")
  .action(async (opts) => {
    const { sessionsCommand } = await import("./sessions-command.js");
    await sessionsCommand(opts);
  });

withClientFlags(sessions.command("delete <keys...>").description("delete sessions through the gateway (each transcript is kept as an archive)"))
  .option("--agent <id>", "agent that owns the sessions (bare keys are its)")
  .option("--dry-run", "check each key and show what would be deleted, deleting nothing")
  .option("--yes", "delete without asking (required without a terminal)")
  .action(async (keys: string[], opts) => {
    const { sessionsDeleteCommand } = await import("./sessions-delete-command.js");
    await sessionsDeleteCommand(keys, opts);
  });

withClientFlags(sessions.command("compact <key>").description("summarize a session's older turns now; exit 1 when nothing was compacted"), {
  help: "give up after this many seconds (default: connecting 10, the compaction as long as the gateway takes)",
})
  .option("--agent <id>", "agent that owns the session (a bare key is its)")
  .action(async (key: string, opts) => {
    const { sessionsCompactCommand } = await import("./sessions-compact-command.js");
    await sessionsCompactCommand(key, opts);
  });

withClientFlags(sessions.command("cleanup").description("run session maintenance now (session.maintenance): archive idle and excess sessions, remove expired archives"))
  .option("--dry-run", "show what the pass would archive and remove, changing nothing")
  .option("--enforce", "apply even when session.maintenance.mode is warn")
  .option("--agent <id>", "this agent's sessions (default: the default agent's)")
  .option("--all-agents", "every configured agent's sessions")
  .option("--active-key <key>", "a session this pass never archives (it still counts toward maxEntries)")
  .option("--store <path>", "OpenClaw's store selector: not supported here (refused)")
  .option("--fix-missing", "OpenClaw's removal of sessions without a transcript: not supported here (refused)")
  .option("--fix-dm-scope", "OpenClaw's retirement of per-peer DM sessions: not supported here (refused)")
  .action(async (opts) => {
    const { sessionsCleanupCommand } = await import("./sessions-cleanup-command.js");
    await sessionsCleanupCommand(opts);
  });

withClientFlags(program.command("status").description("gateway reachability, version and sessions")).action(async (opts) => {
  const { statusCommand } = await import("./sessions-command.js");
  await statusCommand(opts);
});

const pairing = program.command("pairing").description("approve unknown DM senders (dmPolicy: pairing)");
pairing
  .command("list [channel]")
  .description("pending pairing requests")
  .option("--channel <id>", "only this channel")
  .option("--account <id>", "only this account")
  .option("--json", "print JSON")
  .action(async (channel, opts) => {
    const { pairingListCommand } = await import("./channels-command.js");
    pairingListCommand(channel ?? opts.channel, opts);
  });
pairing
  .command("approve <channel> <code>")
  .description("let the sender with this code talk to the agent")
  .option("--account <id>", "account id")
  .option("--json", "print JSON")
  .action(async (channel, code, opts) => {
    const { pairingApproveCommand } = await import("./channels-command.js");
    pairingApproveCommand(channel, code, opts);
  });
pairing
  .command("reject <channel> <code>")
  .alias("deny")
  .description("refuse the request with this code (the sender stays out)")
  .option("--account <id>", "account id")
  .option("--json", "print JSON")
  .action(async (channel, code, opts) => {
    const { pairingRejectCommand } = await import("./channels-command.js");
    pairingRejectCommand(channel, code, opts);
  });

const secrets = program.command("secrets").description("the config's SecretRefs (secrets.providers; docs/configuration.md)");
withClientFlags(secrets.command("reload").description("make the running gateway read its SecretRefs again (a rotated key) and apply what changed")).action(async (opts) => {
  const { secretsReloadCommand } = await import("./secrets-command.js");
  await secretsReloadCommand(opts);
});

const channels = program.command("channels").description("Telegram, Discord and Slack accounts");
withClientFlags(channels.command("status").description("connection state of each channel account")).action(async (opts) => {
  const { channelsStatusCommand } = await import("./channels-command.js");
  await channelsStatusCommand(opts);
});

const message = program.command("message").description("send messages through a channel");
withClientFlags(message.command("send").description("deliver a text without an agent run"))
  .option("--channel <id>", "telegram, discord or slack (required when several run)")
  .option("--account <id>", "channel account")
  .option("-t, --target <dest>", "chat id, @username, channel:<id>, user:<id>, <chatId>:topic:<id>")
  .option("--to <dest>", "same as --target")
  .option("-m, --message <text>", "the text")
  .option("--thread-id <id>", "thread or topic")
  .option("--reply-to <id>", "message id to reply to")
  .action(async (opts) => {
    const { messageSendCommand } = await import("./channels-command.js");
    await messageSendCommand(opts);
  });

program
  .command("tools")
  .description("inspect the tools agents get")
  .command("explain")
  .description("show which tools an agent gets and which policy layer removed the others")
  .option("--agent <id>", "agent id")
  .option("--provider <id>", "model provider (default: from the agent's model)")
  .option("--model <ref>", "model as provider/model (default: the agent's model)")
  .option("--channel <id>", "channel the run comes from")
  .option("--not-owner", "as a sender who is not the owner")
  .option("--sandboxed", "as a sandboxed run")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { toolsExplainCommand } = await import("./tools-command.js");
    toolsExplainCommand(opts);
  });

program
  .command("sandbox")
  .description("the exec sandbox (bubblewrap or Docker)")
  .command("explain")
  .description("show whether an agent's run in a session is sandboxed, with which backend, mounts, network and tools")
  .option("--agent <id>", "agent id (default: the default agent)")
  .option("--session <key>", "session key (default: the agent's main session)")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { sandboxExplainCommand } = await import("./sandbox-command.js");
    sandboxExplainCommand(opts);
  });

const mcp = program.command("mcp").description("MCP servers whose tools agents get (mcp.servers; docs/tools.md)");
mcp
  .command("list")
  .description("the saved MCP servers, without connecting")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { mcpListCommand } = await import("./mcp-command.js");
    mcpListCommand(opts);
  });
mcp
  .command("show [name]")
  .description("one server's definition (all without a name), secrets redacted")
  .option("--json", "print JSON")
  .action(async (name, opts) => {
    const { mcpShowCommand } = await import("./mcp-command.js");
    mcpShowCommand(name, opts);
  });
mcp
  .command("probe [name]")
  .description("start each enabled server (or one), list its tools and close it; exit 1 when one fails")
  .option("--json", "print JSON")
  .action(async (name, opts) => {
    const { mcpProbeCommand } = await import("./mcp-command.js");
    await mcpProbeCommand(name, opts);
  });
mcp
  .command("set <name> <json>")
  .description('save a server: {"command":"uvx","args":["mcp-server-fetch"]} or {"url":"https://…","transport":"streamable-http"}')
  .option("--json", "print JSON")
  .action(async (name, json, opts) => {
    const { mcpSetCommand } = await import("./mcp-command.js");
    mcpSetCommand(name, json, opts);
  });
mcp
  .command("unset <name>")
  .description("remove a saved server")
  .option("--json", "print JSON")
  .action(async (name, opts) => {
    const { mcpUnsetCommand } = await import("./mcp-command.js");
    mcpUnsetCommand(name, opts);
  });

const models = program.command("models").description("configured models, model chain, auth profiles and cooldowns; set the default model, fallbacks and aliases");
withClientFlags(models.command("list").description("the models the gateway can use, with input, context window, local and auth (as OpenClaw's)"))
  .option("--agent <id>", "agent whose model and fallbacks the tags show (default: the default agent)")
  .option("--all", "the full catalog (here the same list: the catalog is the models the config names)")
  .option("--provider <id>", "only this provider's models")
  .option("--local", "only models on this machine or the local network")
  .option("--plain", "one provider/model per line")
  .option("--refresh", "refused: this gateway does not discover provider models")
  .action(async (opts) => {
    const { modelsListCommand } = await import("./models-list-command.js");
    await modelsListCommand(opts);
  });
// Bare `openclaw models` is `models status`, as in OpenClaw.
models
  .command("status", { isDefault: true })
  .description("the agent's model chain and each provider's keys with their cooldowns (secrets masked)")
  .option("--agent <id>", "agent id")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { modelsStatusCommand } = await import("./models-command.js");
    modelsStatusCommand(opts);
  });
registerModelsEditCommands(models);

const traces = program.command("traces").description("run traces: model calls, tool calls, outcome (docs/traces.md)");
traces
  .command("list")
  .description("recent runs, newest first")
  .option("--session <key>", "only this session's runs")
  .option("--since <when>", "only runs since a duration ago (30m, 2h, 7d) or a date")
  .option("--limit <n>", "at most this many runs (default 50)")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { tracesListCommand } = await import("./traces-command.js");
    await tracesListCommand(opts);
  });
traces
  .command("show <runId>")
  .description("one run's trace as a tree")
  .option("--json", "print the whole trace as JSON")
  .action(async (runId, opts) => {
    const { tracesShowCommand } = await import("./traces-command.js");
    await tracesShowCommand(runId, opts);
  });
traces
  .command("search <words...>")
  .description('runs whose messages, thinking, tool calls or reply hold every word (or "quoted phrase"), best match first')
  .option("--session <key>", "only this session's runs")
  .option("--since <when>", "only runs since a duration ago (30m, 2h, 7d) or a date")
  .option("--limit <n>", "at most this many runs (default 20)")
  .option("--meaning", "nearest in meaning instead of by words (needs diagnostics.traces.search.embeddings)")
  .option("--min-score <n>", "with --meaning: only runs scoring at least this (cosine similarity, 0-1)")
  .option("--json", "print JSON")
  .action(async (words, opts) => {
    const { tracesSearchCommand } = await import("./traces-command.js");
    await tracesSearchCommand(words, opts);
  });
traces
  .command("review")
  .description("the review queue: runs routed to you by rule (thumbs-down, cost, new model, sample); pending ones by default")
  .option("--labelled", "only runs already labelled")
  .option("--all", "pending and labelled runs")
  .option("--limit <n>", "at most this many runs (default 50)")
  .option("--calibration", "how the LLM judge's verdicts agree with your labels: agreement, the 2x2 table, Cohen's kappa, disagreements")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { tracesReviewCommand } = await import("./traces-command.js");
    await tracesReviewCommand(opts);
  });
withClientFlags(
  traces
    .command("regrade [runId]")
    .description("have the LLM judge grade runs again: one queued run, or those graded under another rubric (and errors); asks the running gateway")
    .option("--all", "every graded run"),
).action(async (runId, opts) => {
  const { tracesRegradeCommand } = await import("./traces-command.js");
  await tracesRegradeCommand(runId, opts);
});
traces
  .command("feedback <runId> <rating>")
  .description("rate a run up or down; down puts it in the review queue")
  .option("--note <text>", "what was wrong (or right)")
  .option("--json", "print JSON")
  .action(async (runId, rating, opts) => {
    const { tracesFeedbackCommand } = await import("./traces-command.js");
    await tracesFeedbackCommand(runId, rating, opts);
  });
traces
  .command("label <runId> <verdict>")
  .description("your verdict on a run: pass or fail (a run nobody queued is added to the queue)")
  .option("--note <text>", "why")
  .option("--json", "print JSON")
  .action(async (runId, verdict, opts) => {
    const { tracesLabelCommand } = await import("./traces-command.js");
    await tracesLabelCommand(runId, verdict, opts);
  });
const tasks = program.command("tasks").description("background tasks on the gateway: sub-agent spawns, cron runs, agent runs (bare: tasks list)");
withClientFlags(tasks.command("list", { isDefault: true }).description("background tasks, newest first"))
  .option("--runtime <name>", "only this kind: subagent, acp, cron or cli")
  .option("--status <name>", "only this status: queued, running, succeeded, failed, timed_out, cancelled or lost")
  .action(async (opts) => {
    const { tasksListCommand } = await import("./tasks-command.js");
    await tasksListCommand(opts);
  });
withClientFlags(tasks.command("show <lookup>").description("one task by task id, run id or session key")).action(async (lookup: string, opts) => {
  const { tasksShowCommand } = await import("./tasks-command.js");
  await tasksShowCommand(lookup, opts);
});
withClientFlags(tasks.command("cancel <lookup>").description("cancel a running task (kills the sub-agent, aborts the cron or agent run)")).action(async (lookup: string, opts) => {
  const { tasksCancelCommand } = await import("./tasks-command.js");
  await tasksCancelCommand(lookup, opts);
});
for (const name of ["notify", "retry", "dismiss", "audit", "maintenance", "flow"]) {
  tasks
    .command(name)
    .description(`OpenClaw's \`tasks ${name}\`: not supported here (refused)`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      const { tasksUnsupported } = await import("./tasks-command.js");
      tasksUnsupported(name);
    });
}
const evals = program.command("eval").description("run eval suites against the agent (docs/evals.md)");
evals
  .command("run <suite>")
  .description("run every task of a suite folder, each in fresh sessions and workspaces")
  .option("--trials <n>", "trials per task (default 1)")
  .option("--model <ref>", "provider/model for every task")
  .option("--baseline <file>", "an earlier --json report: exit 1 when a task's pass@1 fell below it")
  .option("--json", "print the report as JSON")
  .action(async (suite, opts) => {
    const { evalRunCommand } = await import("./eval-command.js");
    await evalRunCommand(suite, opts);
  });
evals
  .command("draft <dir>")
  .description("draft task files from the runs labelled in the review queue (openclaw traces label), into a suite folder")
  .option("--label <which>", "fail (default), pass or all")
  .option("--limit <n>", "at most this many runs, newest first (default 50)")
  .option("--json", "print what was written as JSON")
  .action(async (dir, opts) => {
    const { evalDraftCommand } = await import("./eval-draft-command.js");
    await evalDraftCommand(dir, opts);
  });
const memory = program.command("memory").description("the agents' memory index (MEMORY.md, memory/*.md)");
memory
  .command("status")
  .description("files, chunks, provider, vectors and last sync of an agent's index")
  .option("--agent <id>", "agent id (default: the default agent)")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { memoryStatusCommand } = await import("./memory-command.js");
    await memoryStatusCommand(opts);
  });
memory
  .command("index")
  .description("bring the index up to date with the memory files")
  .option("--force", "drop the index and rebuild it (needed after a change of embedding model or chunking)")
  .option("--agent <id>", "agent id (default: the default agent)")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { memoryIndexCommand } = await import("./memory-command.js");
    await memoryIndexCommand(opts);
  });
memory
  .command("search <query>")
  .description("search the memory as the memory_search tool does")
  .option("--agent <id>", "agent id (default: the default agent)")
  .option("--max-results <n>", "at most this many results")
  .option("--json", "print JSON")
  .action(async (query, opts) => {
    const { memorySearchCommand } = await import("./memory-command.js");
    await memorySearchCommand(query, opts);
  });

// `openclaw cron` and its alias `openclaw automations`: scheduled jobs on the running gateway (docs/automation.md).
const cron = program.command("cron").alias("automations").description("scheduled jobs on the gateway: reminders, reports, checks");
const withJobFlags = (cmd: Command) =>
  withClientFlags(cmd)
    .option("--name <name>", "job name")
    .option("--description <text>", "what the job is for")
    .option("--at <when>", "run once: an ISO time (UTC unless --tz) or a delay such as 20m")
    .option("--every <duration>", "run every 30m, 2h, 1d …")
    .option("--cron <expr>", "cron expression, 5 fields (or 6 with seconds)")
    .option("--tz <zone>", "IANA time zone for --at and --cron (default UTC)")
    .option("--exact", "no stagger for on-the-hour cron expressions")
    .option("--message <text>", "an agent turn with this message")
    .option("--system-event <text>", "text for the main session instead of an agent turn")
    .option("--session <target>", "main, isolated or session:<key> (default: isolated for --message, main for --system-event)")
    .option("--wake <mode>", "system events: now or next-heartbeat")
    .option("--agent <id>", "agent id (default: the default agent)")
    .option("--model <provider/model>", "isolated runs: model for the turn")
    .option("--fallbacks <models>", "isolated runs: comma-separated provider/model list tried when the model fails")
    .option("--tools <names>", "isolated runs: comma-separated tools (or group:*) the turn may use")
    .option("--thinking <level>", "isolated runs: thinking level")
    .option("--timeout-seconds <n>", "isolated runs: turn time limit")
    .option("--light-context", "isolated runs: leave the bootstrap files out of the prompt")
    .option("--announce", "send the reply to a chat (with --channel and --to; default channel: the main session's last chat)")
    .option("--channel <id>", "chat channel for the reply (telegram, discord, slack, last)")
    .option("--to <chat>", "chat to send the reply to")
    .option("--account <id>", "channel account")
    .option("--best-effort", "run even when the chat cannot be reached")
    .option("--webhook <url>", "POST the reply to this URL")
    .option("--report-to <session>", "isolated runs: report the result to this session (main or a session key), whose agent answers there")
    .option("--no-deliver", "keep the reply in the run history only")
    .option("--delete-after-run", "remove a one-shot job after its successful run (the default for --at)")
    .option("--keep-after-run", "keep a one-shot job after its run");
withJobFlags(cron.command("add").description("add a job"))
  .option("--disabled", "add it switched off")
  .action(async (opts) => {
    const { cronAddCommand } = await import("./cron-command.js");
    await cronAddCommand({ ...opts, noDeliver: opts.deliver === false });
  });
withJobFlags(cron.command("edit <id>").description("change a job (only the flags given)"))
  .option("--enable", "switch it on")
  .option("--disable", "switch it off")
  .action(async (id, opts) => {
    const { cronEditCommand } = await import("./cron-command.js");
    await cronEditCommand(id, { ...opts, noDeliver: opts.deliver === false });
  });
withClientFlags(cron.command("list").description("jobs with their schedule and next run"))
  .option("--all", "include disabled jobs")
  .action(async (opts) => {
    const { cronListCommand } = await import("./cron-command.js");
    await cronListCommand(opts);
  });
withClientFlags(cron.command("rm <id>").alias("remove").description("remove a job and its run history")).action(async (id, opts) => {
  const { cronRemoveCommand } = await import("./cron-command.js");
  await cronRemoveCommand(id, opts);
});
withClientFlags(cron.command("enable <id>").description("turn a job's schedule back on")).action(async (id, opts) => {
  const { cronSetEnabledCommand } = await import("./cron-command.js");
  await cronSetEnabledCommand(id, true, opts);
});
withClientFlags(cron.command("disable <id>").description("pause a job (kept; cron list --all shows it)")).action(async (id, opts) => {
  const { cronSetEnabledCommand } = await import("./cron-command.js");
  await cronSetEnabledCommand(id, false, opts);
});
withClientFlags(cron.command("get <id>").description("a job as JSON")).action(async (id, opts) => {
  const { cronGetCommand } = await import("./cron-command.js");
  await cronGetCommand(id, opts);
});
withClientFlags(cron.command("show <id-or-name>").description("a job, readable: schedule, target, delivery, next and last run")).action(async (idOrName, opts) => {
  const { cronShowCommand } = await import("./cron-command.js");
  await cronShowCommand(idOrName, opts);
});
withClientFlags(cron.command("run <id>").description("start a run now"))
  .option("--due", "only when the job is due")
  .action(async (id, opts) => {
    const { cronRunCommand } = await import("./cron-command.js");
    await cronRunCommand(id, opts);
  });
withClientFlags(cron.command("runs [id]").description("run history, newest first"))
  .option("--limit <n>", "at most this many runs", "20")
  .action(async (id, opts) => {
    const { cronRunsCommand } = await import("./cron-command.js");
    await cronRunsCommand(id, opts);
  });
withClientFlags(cron.command("status").description("is the scheduler on, how many jobs, the next run")).action(async (opts) => {
  const { cronStatusCommand } = await import("./cron-command.js");
  await cronStatusCommand(opts);
});

// `openclaw system`: system events, heartbeat switches and presence on the gateway (docs/automation.md#heartbeat).
const system = program.command("system").description("system events, heartbeats and presence");
withClientFlags(system.command("event").description("queue a system event for the agent's next heartbeat (or beat now with --mode now)"))
  .option("--text <text>", "the system event's text (required)")
  .option("--mode <mode>", "now or next-heartbeat", "next-heartbeat")
  .option("--session-key <key>", "session whose agent gets it (default: the default agent's main session); an agent without a heartbeat runs it as a turn there")
  .action(async (opts) => {
    const { systemEventCommand } = await import("./system-command.js");
    await systemEventCommand(opts);
  });
const heartbeat = system.command("heartbeat").description("heartbeat controls");
withClientFlags(heartbeat.command("last").description("the last heartbeat (JSON; null before the first)")).action(async (opts) => {
  const { systemHeartbeatLastCommand } = await import("./system-command.js");
  await systemHeartbeatLastCommand(opts);
});
for (const [name, enabled] of [
  ["enable", true],
  ["disable", false],
] as const) {
  withClientFlags(heartbeat.command(name).description(`${enabled ? "turn every heartbeat back on" : "pause every heartbeat"} until the gateway restarts`)).action(async (opts) => {
    const { systemHeartbeatSetCommand } = await import("./system-command.js");
    await systemHeartbeatSetCommand(enabled, opts);
  });
}
withClientFlags(system.command("presence").description("the gateway's presence entries: itself and its UI, webchat and node clients (JSON)")).action(async (opts) => {
  const { systemPresenceCommand } = await import("./system-command.js");
  await systemPresenceCommand(opts);
});

// `openclaw hooks`: file-based internal hooks (docs/automation.md#internal-hooks).
const hooks = program.command("hooks").description("internal hooks: list, inspect, check, enable and disable");
hooks
  .command("list")
  .description("discovered hooks, whether each is on, and its events")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { hooksListCommand } = await import("./hooks-command.js");
    hooksListCommand(opts);
  });
hooks
  .command("info <name>")
  .description("one hook: its folder, handler, events and state")
  .option("--json", "print JSON")
  .action(async (name, opts) => {
    const { hooksInfoCommand } = await import("./hooks-command.js");
    hooksInfoCommand(name, opts);
  });
hooks
  .command("check")
  .description("how many hooks are ready, and why each other one is not (off, or cannot run)")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { hooksCheckCommand } = await import("./hooks-command.js");
    hooksCheckCommand(opts);
  });
hooks
  .command("enable <name>")
  .description("turn a hook on (hooks.internal.entries.<name>.enabled: true)")
  .option("--json", "print JSON")
  .action(async (name, opts) => {
    const { hooksSetEnabledCommand } = await import("./hooks-command.js");
    hooksSetEnabledCommand(name, true, opts);
  });
hooks
  .command("disable <name>")
  .description("turn a hook off")
  .option("--json", "print JSON")
  .action(async (name, opts) => {
    const { hooksSetEnabledCommand } = await import("./hooks-command.js");
    hooksSetEnabledCommand(name, false, opts);
  });

const skills = registerSkillsCommands(program);

const config = program.command("config").description("read, change and check the config file");
config
  .command("get <path>")
  .description("print a config value (secrets redacted)")
  .option("--json", "print JSON")
  .action(async (keyPath, opts) => {
    const { configGetCommand } = await import("./config-command.js");
    configGetCommand(keyPath, opts);
  });
config
  .command("set <path> <value>")
  .description("set a config value (JSON5 or a plain string)")
  .option("--json", "print JSON")
  .action(async (keyPath, value, opts) => {
    const { configSetCommand } = await import("./config-command.js");
    configSetCommand(keyPath, value, opts);
  });
config
  .command("unset <path>")
  .description("remove a config value")
  .option("--json", "print JSON")
  .action(async (keyPath, opts) => {
    const { configUnsetCommand } = await import("./config-command.js");
    configUnsetCommand(keyPath, opts);
  });
config
  .command("validate")
  .description("check the config file (exit 78 when invalid)")
  .option("--strict", "unknown keys are errors, not warnings")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { configValidateCommand } = await import("./config-command.js");
    configValidateCommand(opts);
  });
config
  .command("patch")
  .description("apply a JSON5 merge patch in one validated write: objects merge, lists and scalars replace, null deletes")
  .option("--file <path>", "read the patch (a JSON5 object) from this file")
  .option("--stdin", "read the patch from standard input")
  .option(
    "--replace-path <path>",
    "replace the object at this key path with the patch's value instead of merging into it (repeatable)",
    (value: string, previous: string[] = []) => [...previous, value],
  )
  .option("--dry-run", "check the patch and the resulting config as the write would; write nothing")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { configPatchCommand } = await import("./config-patch-command.js");
    await configPatchCommand(opts);
  });
config
  .command("schema")
  .description("print the config file's JSON schema")
  .option("--json", "print JSON (the schema is JSON either way)")
  .action(async () => {
    const { configSchemaCommand } = await import("./config-command.js");
    configSchemaCommand();
  });
config
  .command("file")
  .description("print the config file path")
  .action(async () => {
    const { configFileCommand } = await import("./config-command.js");
    configFileCommand();
  });

// `openclaw acp` (the IDE bridge) and `openclaw acp client`; `doctor` joins the same command.
const acp = registerAcpCommand(program);
acp
  .command("doctor")
  .description("check each configured ACP agent: command found, initialize answered, protocol version")
  .option("--json", "print JSON")
  .action(async (opts) => {
    const { acpDoctorCommand } = await import("./acp-doctor-command.js");
    await acpDoctorCommand(opts);
  });

registerOpsCommands(program, withClientFlags);
registerApprovalsCommands(program, withClientFlags);
// `openclaw backup`: archives of the state dir, config and workspaces (docs/cli.md#backup).
registerBackupCommands(program);

program
  .command("reset")
  .description("move the local config and state to the Trash (keeps the CLI installed); back up first with openclaw backup create")
  .option("--scope <scope>", "config | config+creds+sessions | full (asked on a terminal when absent)")
  .option("--yes", "skip the confirmation")
  .option("--non-interactive", "ask nothing (needs --scope and --yes)")
  .option("--dry-run", "print what would move to the Trash and move nothing")
  .action(async (opts) => {
    const { resetCommand } = await import("./reset/reset-command.js");
    await resetCommand(opts);
  });

program
  .command("uninstall")
  .description("remove the gateway service and move the local state and workspaces to the Trash (keeps the CLI installed)")
  .option("--service", "stop and remove the gateway service (systemd user unit / launchd agent)")
  .option("--state", "move the state dir and the config to the Trash (workspaces stay)")
  .option("--workspace", "move the agents' workspaces to the Trash")
  .option("--app", "the macOS app (not applicable: this gateway has none)")
  .option("--all", "--service --state --workspace --app")
  .option("--yes", "skip the confirmation")
  .option("--non-interactive", "ask nothing (needs a scope flag and --yes)")
  .option("--dry-run", "print what would be done and change nothing")
  .action(async (opts) => {
    const { uninstallCommand } = await import("./reset/uninstall-command.js");
    await uninstallCommand(opts);
  });

/** Parses `argv` (process.argv shape) and runs the command it names. */
export async function runProgram(argv: readonly string[]): Promise<unknown> {
  const typo = unknownSubcommand(argv.slice(2));
  if (typo) {
    const { CliError } = await import("./output.js");
    throw new CliError(typo);
  }
  return program.parseAsync(argv);
}

/** The groups whose bare name runs a default subcommand (`gateway` → `run`, `models` → `status`, `skills` → `list`). */
const GROUPS_WITH_DEFAULT = [gateway, models, skills];

/**
 * `openclaw gateway` alone runs `gateway run`, so commander would read `gateway strat` as `run`
 * with an extra argument (and so for every group with a default subcommand, none of which takes
 * one). A word there that names no subcommand is a typo: say so, with the nearest command, as
 * commander does for every other level.
 */
function unknownSubcommand(args: readonly string[]): string | undefined {
  const at = args[0] === "--log-level" ? 2 : 0;
  const group = GROUPS_WITH_DEFAULT.find((g) => g.name() === args[at]);
  const word = args[at + 1];
  if (!group || !word || word.startsWith("-") || word === "help") return undefined;
  const names = group.commands.map((command) => command.name());
  if (group.commands.some((command) => command.name() === word || command.aliases().includes(word))) return undefined;
  const suggestion = closestName(word, names);
  const name = group.name();
  return `unknown command '${name} ${word}'${suggestion ? ` (did you mean '${name} ${suggestion}'?)` : ""}; ${name} commands: ${names.join(", ")}`;
}
