import path from "node:path";
import { runAcpClient } from "../acp/client/run-client.js";
import { packageVersion } from "../infra/version.js";
import type { AcpBridgeFlags } from "./acp-bridge-command.js";

/** The `openclaw acp` options given around `client`, as commander parsed them. */
export type BridgeFlagsSeen = Omit<AcpBridgeFlags, "provenance" | "verbose"> & { provenance?: string };

/** The same options as arguments for a spawned `openclaw acp`. */
function bridgeArgs(flags: BridgeFlagsSeen): string[] {
  const valued: [keyof BridgeFlagsSeen, string][] = [
    ["url", "--url"],
    ["port", "--port"],
    ["token", "--token"],
    ["tokenFile", "--token-file"],
    ["password", "--password"],
    ["passwordFile", "--password-file"],
    ["session", "--session"],
    ["sessionLabel", "--session-label"],
  ];
  const args = valued.flatMap(([key, flag]) => (typeof flags[key] === "string" ? [flag, flags[key] as string] : []));
  if (flags.requireExisting) args.push("--require-existing");
  if (flags.resetSession) args.push("--reset-session");
  if (flags.prefixCwd === false) args.push("--no-prefix-cwd");
  if (flags.provenance && flags.provenance !== "off") args.push("--provenance", flags.provenance);
  return args;
}

/**
 * `openclaw acp client [-- <command…>]`: a terminal ACP client. Without a command it drives
 * this openclaw's own `acp` bridge (the gateway as the agent) with the bridge options given;
 * with a command, bridge options are refused: they would be silently meaningless.
 */
export async function acpClientCommand(command: string[], flags: BridgeFlagsSeen & { cwd: string; verbose?: boolean }): Promise<void> {
  const forwarded = bridgeArgs(flags);
  if (command.length > 0 && forwarded.length > 0) {
    throw new Error(`${forwarded.filter((a) => a.startsWith("--")).join(", ")}: options of the openclaw acp bridge; with -- <command> the client drives that command instead`);
  }
  const [program, ...args] = command.length > 0 ? command : [process.execPath, process.argv[1]!, "acp", ...forwarded];
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
