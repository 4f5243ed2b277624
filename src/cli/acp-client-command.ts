import path from "node:path";
import { runAcpClient } from "../acp/client/run-client.js";
import { packageVersion } from "../infra/version.js";

/**
 * `openclaw acp client [-- <command…>]`: a terminal ACP client. Without a command it drives
 * this openclaw's own `acp` bridge (the gateway as the agent).
 */
export async function acpClientCommand(command: string[], flags: { cwd: string; verbose?: boolean }): Promise<void> {
  const [program, ...args] = command.length > 0 ? command : [process.execPath, process.argv[1]!, "acp"];
  const code = await runAcpClient({
    command: program!,
    args,
    cwd: path.resolve(flags.cwd),
    version: packageVersion(),
    input: process.stdin,
    interactive: Boolean(process.stdin.isTTY),
    io: { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) },
    log: flags.verbose ? (line) => process.stderr.write(`[acp client] ${line}\n`) : undefined,
  });
  process.exit(code);
}
