import type { FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "./fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "./gateway-process.js";

/**
 * A gateway on the fake model with `config` (its `channels`, `commands`, `tools`, …) in a fresh
 * state dir; resolves once a channel account has started.
 */
export async function startChatGateway(model: FakeModelServer, config: Record<string, unknown>): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir, config) } });
  await gw.waitForOutput(/channel account started/, 15_000);
  return gw;
}
