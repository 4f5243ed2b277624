import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "./gateway-process.js";
import { agentConfig, type AgentStateOptions, makeFastTempDir, removeFastTempDirs, startOn } from "./reliability.js";
import { Rpc } from "./rpc.js";
import { type FixtureState, startedFixture } from "./started-fixture.js";
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

/**
 * Registers the file's vitest hooks: before the first test the fake model starts, a gateway with
 * `token` starts on a tmpfs state dir whose config is `agentConfig` (with `options`, then changed
 * in place by `configure`), and an operator connects over `Rpc`; after the last test the
 * connection closes, the gateway stops (SIGTERM), the model closes and the temp dirs go.
 */
export function useRpcGateway(token: string, options: AgentStateOptions & { configure?: (config: Record<string, any>) => void } = {}): RpcGateway {
  const { configure, ...stateOptions } = options;
  const state: FixtureState<RpcGateway> = {};

  beforeAll(async () => {
    const server = (state.server = await startFakeModelServer());
    const stateDir = (state.stateDir = makeFastTempDir());
    const config = (state.config = agentConfig(server, stateDir, stateOptions));
    configure?.(config);
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    const gw = (state.gw = await startOn(stateDir, token));
    state.rpc = new Rpc((await openOperator(gw.url, token)).sock);
  });
  afterAll(async () => {
    state.rpc?.sock.close();
    await state.gw?.stop();
    await state.server?.close();
    removeFastTempDirs();
  });

  return startedFixture(state);
}
