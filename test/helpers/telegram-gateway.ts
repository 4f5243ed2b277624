import { afterAll, beforeAll } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { makeTempDir, startGateway, type GatewayProcess } from "./gateway-process.js";
import { lastUserText } from "./reliability.js";
import { type FixtureState, startedFixture } from "./started-fixture.js";
import { openOperator, type TestSocket } from "./ws-client.js";

/** The fake model, a fake Telegram bot, one gateway on both and an operator connection, shared by a test file's tests. */
export interface TelegramGateway {
  readonly model: FakeModelServer;
  readonly telegram: FakeTelegram;
  readonly gw: GatewayProcess;
  readonly sock: TestSocket;
}

/**
 * Registers the file's vitest hooks: before the first test the fake model starts answering
 * `model: <last user text>`, a fake Telegram server for @claw_bot starts, and a gateway on a
 * fresh state dir runs `config` (given both fakes and the state dir) until its channel account
 * has started; then an operator connects (with `scopes` when given). After the last test the
 * connection closes, the gateway is killed (SIGKILL) and the fakes close.
 */
export function useTelegramGateway(options: {
  config: (fakes: { model: FakeModelServer; telegram: FakeTelegram; stateDir: string }) => Record<string, unknown>;
  scopes?: string[];
}): TelegramGateway {
  const state: FixtureState<TelegramGateway> = {};

  beforeAll(async () => {
    const model = (state.model = await startFakeModelServer());
    model.setResponder((req) => ({ text: `model: ${lastUserText(req)}` }));
    const telegram = (state.telegram = await startFakeTelegram({ botUsername: "claw_bot" }));
    const stateDir = makeTempDir();
    const config = options.config({ model, telegram, stateDir });
    const gw = (state.gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    await gw.waitForOutput(/channel account started/, 15_000);
    state.sock = (await openOperator(gw.url, gw.token, options.scopes ? { scopes: options.scopes } : {})).sock;
  });
  afterAll(async () => {
    state.sock?.close();
    await state.gw?.stop("SIGKILL");
    await state.telegram?.close();
    await state.model?.close();
  });

  return startedFixture(state);
}
