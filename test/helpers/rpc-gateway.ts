import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "./gateway-process.js";
import { agentConfig, type AgentStateOptions, makeFastTempDir, removeFastTempDirs, startOn } from "./reliability.js";
import { Rpc } from "./rpc.js";
import { openOperator } from "./ws-client.js";

/** The fake model, one gateway on it and an operator connection, shared by a test file's tests. */
export interface RpcGateway {
  readonly server: FakeModelServer;
  readonly gw: GatewayProcess;
  readonly rpc: Rpc;
  readonly stateDir: string;
  /** The config the gateway was started with, as written to `openclaw.json`. */
  readonly config: Record<string, any>;
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not started yet: use it inside a test or a hook`);
  return value;
}

/**
 * Registers the file's vitest hooks: before the first test the fake model starts, a gateway with
 * `token` starts on a tmpfs state dir whose config is `agentConfig` (with `options`, then changed
 * in place by `configure`), and an operator connects over `Rpc`; after the last test the
 * connection closes, the gateway stops (SIGTERM), the model closes and the temp dirs go.
 */
export function useRpcGateway(token: string, options: AgentStateOptions & { configure?: (config: Record<string, any>) => void } = {}): RpcGateway {
  const { configure, ...stateOptions } = options;
  let server: FakeModelServer | undefined;
  let gw: GatewayProcess | undefined;
  let rpc: Rpc | undefined;
  let stateDir: string | undefined;
  let config: Record<string, any> | undefined;

  beforeAll(async () => {
    server = await startFakeModelServer();
    stateDir = makeFastTempDir();
    config = agentConfig(server, stateDir, stateOptions);
    configure?.(config);
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    gw = await startOn(stateDir, token);
    rpc = new Rpc((await openOperator(gw.url, token)).sock);
  });
  afterAll(async () => {
    rpc?.sock.close();
    await gw?.stop();
    await server?.close();
    removeFastTempDirs();
  });

  return {
    get server() {
      return started(server, "the fake model server");
    },
    get gw() {
      return started(gw, "the gateway");
    },
    get rpc() {
      return started(rpc, "the operator connection");
    },
    get stateDir() {
      return started(stateDir, "the state dir");
    },
    get config() {
      return started(config, "the config");
    },
  };
}
