import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { createBridgeAgent } from "./bridge-agent.js";
import { ReconnectingGateway } from "../../infra/reconnecting-connection.js";
import type { BridgeOptions, GatewayConnection } from "./types.js";

export interface ServeBridgeInput {
  connect: () => Promise<GatewayConnection>;
  /** The first connection, when the caller started it already (it overlaps loading the SDK). */
  firstConnection?: Promise<GatewayConnection>;
  options: BridgeOptions;
  version: string;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

/**
 * Serves ACP on stdin/stdout until the IDE closes its end. The gateway connection is opened
 * first: a bridge that cannot reach its gateway says so and exits instead of accepting sessions.
 */
export async function serveBridge(input: ServeBridgeInput): Promise<void> {
  const log = input.options.log ?? (() => {});
  const gateway = new ReconnectingGateway(input.connect, log);
  await gateway.start(input.firstConnection);
  const bridge = createBridgeAgent(gateway, input.options, input.version);
  const stream = acp.ndJsonStream(
    Writable.toWeb((input.output ?? process.stdout) as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb((input.input ?? process.stdin) as Readable) as ReadableStream<Uint8Array>,
  );
  const connection = bridge.app.connect(stream);
  log("ready");
  try {
    await connection.closed;
    await bridge.shutdown();
  } finally {
    gateway.stop();
  }
}
