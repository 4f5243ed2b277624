#!/usr/bin/env node
import { listenEarly } from "../gateway/early-listen.js";
import type { ServerFlags } from "./gateway-run.js";
import { parseGatewayRunArgs } from "./gateway-run-args.js";

/**
 * The `openclaw` command. A plain `gateway run` line (how users, the daemon and the benches start
 * the gateway) goes straight to the gateway: building the commander program would slow every cold
 * start. Every other line goes through commander, and each command's module is imported on demand,
 * so `openclaw --help` loads only what it uses. The gateway's port opens first when its address is
 * known that early (loopback, plain flags and config: see src/gateway/early-listen.ts), before the
 * gateway's own code is even read.
 */
function startGatewayRun(flags: ServerFlags): Promise<void> {
  const early = listenEarly(flags, process.env);
  return import("./gateway-run.js").then(({ gatewayRunCommand }) => gatewayRunCommand(flags, early));
}

const gatewayRun = parseGatewayRunArgs(process.argv.slice(2));
const command = gatewayRun ? startGatewayRun(gatewayRun) : import("./program.js").then(({ runProgram }) => runProgram(process.argv));

command.catch(async (err) => {
  const { reportCliError } = await import("./output.js");
  reportCliError(err, process.argv.includes("--json"));
});
