#!/usr/bin/env node
import { parseGatewayRunArgs } from "./gateway-run-args.js";

/**
 * The `openclaw` command. A plain `gateway run` line (how users, the daemon and the benches start
 * the gateway) goes straight to the gateway: building the commander program would slow every cold
 * start. Every other line goes through commander, and each command's module is imported on demand,
 * so `openclaw --help` loads only what it uses.
 */
const gatewayRun = parseGatewayRunArgs(process.argv.slice(2));
const command = gatewayRun
  ? import("./gateway-run.js").then(({ gatewayRunCommand }) => gatewayRunCommand(gatewayRun))
  : import("./program.js").then(({ runProgram }) => runProgram(process.argv));
command.catch(async (err) => {
  const { reportCliError } = await import("./output.js");
  reportCliError(err, process.argv.includes("--json"));
});
