import type { EarlyListen } from "../gateway/early-listen.js";
import type { ServerFlags } from "./gateway-run.js";

/**
 * Runs the command line. A plain `gateway run` line (`gatewayRun`, from parseGatewayRunArgs) goes
 * straight to the gateway, with the port the entry may already have opened: building the
 * commander program would slow every cold start. Every other line goes through commander, and
 * each command's module is imported on demand, so `openclaw --help` loads only what it uses.
 */
export function runCli(gatewayRun: ServerFlags | undefined, early: Promise<EarlyListen | undefined> | undefined): void {
  const command = gatewayRun
    ? import("./gateway-run.js").then(({ gatewayRunCommand }) => gatewayRunCommand(gatewayRun, early))
    : import("./program.js").then(({ runProgram }) => runProgram(process.argv));
  command.catch(async (err) => {
    const { reportCliError } = await import("./output.js");
    reportCliError(err, process.argv.includes("--json"));
  });
}

/** A global option that cannot be honoured (`--profile a/b`, `--dev` with `--profile`): exit 2, as OpenClaw. */
export async function reportRootOptionsError(message: string): Promise<void> {
  const { CliError, reportCliError } = await import("./output.js");
  reportCliError(new CliError(message, 2), process.argv.includes("--json"));
}
