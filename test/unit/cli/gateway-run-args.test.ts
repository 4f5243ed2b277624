import { describe, expect, it, vi } from "vitest";

const gatewayRunCommand = vi.fn(async (_flags: unknown) => {});
vi.mock("../../../src/cli/gateway-run.js", () => ({ gatewayRunCommand }));

const { parseGatewayRunArgs } = await import("../../../src/cli/gateway-run-args.js");
const { runProgram } = await import("../../../src/cli/program.js");

/** What commander hands to `gatewayRunCommand` for this command line. */
async function viaCommander(args: string[]): Promise<unknown> {
  gatewayRunCommand.mockClear();
  await runProgram(["node", "openclaw", ...args]);
  expect(gatewayRunCommand).toHaveBeenCalledTimes(1);
  return gatewayRunCommand.mock.calls[0]![0];
}

describe("parseGatewayRunArgs", () => {
  const plainLines = [
    ["gateway", "run"],
    ["gateway", "run", "--port", "18790"],
    ["gateway", "run", "--port", "0", "--bind", "lan", "--auth", "token", "--token", "s3cret"],
    ["gateway", "run", "--auth", "password", "--password", "pw", "--allow-unconfigured"],
    ["gateway", "run", "--allow-unconfigured", "--log-level", "debug", "--port", "1"],
    ["gateway", "run", "--log-level", "silent", "--bind", "custom"],
  ];

  it.each(plainLines)("reads %j exactly as commander does", async (...args) => {
    const flags = parseGatewayRunArgs(args);
    expect(flags).toBeDefined();
    expect(flags).toEqual(await viaCommander(args));
  });

  it.each([
    [["gateway"]],
    [["gateway", "start", "--port", "1"]],
    [["--log-level", "debug", "gateway", "run"]],
    [["gateway", "run", "--port=1"]],
    [["gateway", "run", "--port"]],
    [["gateway", "run", "--port", "-1"]],
    [["gateway", "run", "--port", "1", "--port", "2"]],
    [["gateway", "run", "--bind", "everywhere"]],
    [["gateway", "run", "--log-level", "loud"]],
    [["gateway", "run", "--help"]],
    [["gateway", "run", "extra"]],
    [["gateway", "run", "constructor", "x"]],
    [["gateway", "run", "--json"]],
  ])("leaves %j to commander", (args) => {
    expect(parseGatewayRunArgs(args)).toBeUndefined();
  });
});
