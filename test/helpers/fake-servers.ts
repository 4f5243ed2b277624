import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "./fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "./gateway-process.js";
import { type FixtureState, startedFixture } from "./started-fixture.js";
import { openOperator, type TestSocket } from "./ws-client.js";

type FakeTelegramOptions = Parameters<typeof startFakeTelegram>[0];

/** A gateway a test started: a gateway process (stopped with SIGKILL) or one in the test process. */
interface StoppableGateway {
  stop(signal?: NodeJS.Signals): Promise<unknown>;
}

/** The fake servers of a test file whose tests each start their own gateway. */
export interface FakeServers {
  /** The fake model server, shared by the file's tests; it forgets its requests and responder after each test. */
  readonly model: FakeModelServer;
  /**
   * The fake Telegram server: the file's (`telegram` option), else the one `startTelegram` started for
   * this test. Failures and hangs a test arms on the file's server and does not use are forgotten after it.
   */
  readonly telegram: FakeTelegram;
  /** Starts a fake Telegram server for this test only; it is closed after the test. */
  startTelegram(options?: FakeTelegramOptions): Promise<FakeTelegram>;
  /** Stops `gw` after this test (a gateway process with SIGKILL); returns it. */
  keep<G extends StoppableGateway>(gw: G): G;
  /** Kills a kept gateway now (SIGKILL) and forgets it. */
  kill(gw: StoppableGateway): Promise<void>;
}

/**
 * Registers the file's vitest hooks: the fake model (and with `telegram`, a fake Telegram server,
 * given those options unless `true`) start before the first test and close after the last.
 * After each test the kept gateways are stopped, then a Telegram server started for the test is
 * closed, then the file's Telegram server drops its connections and forgets what the test armed on it
 * and did not use (`clearArmed`; it keeps what it recorded), and the model drops its connections and
 * is reset. Call it before the file's own hooks: they run inside these.
 */
export function useFakeServers(options: { telegram?: true | FakeTelegramOptions } = {}): FakeServers {
  let model: FakeModelServer | undefined;
  let fileTelegram: FakeTelegram | undefined;
  let testTelegram: FakeTelegram | undefined;
  const kept: StoppableGateway[] = [];

  beforeAll(async () => {
    model = await startFakeModelServer();
    if (options.telegram) fileTelegram = await startFakeTelegram(options.telegram === true ? {} : options.telegram);
  });
  afterAll(async () => {
    await fileTelegram?.close();
    await model?.close();
  });
  afterEach(async () => {
    for (const gw of kept.splice(0)) await gw.stop("SIGKILL");
    await testTelegram?.close();
    testTelegram = undefined;
    // A call a killed gateway had just sent may still be unread on its connection: dropped, it never counts in the next test.
    fileTelegram?.dropConnections();
    fileTelegram?.clearArmed();
    model?.dropConnections();
    model?.reset();
  });

  return {
    get model() {
      if (!model) throw new Error("the fake model server is not started yet: use it inside a test or a hook");
      return model;
    },
    get telegram() {
      const telegram = testTelegram ?? fileTelegram;
      if (!telegram) throw new Error("no fake Telegram server: pass `telegram` to useFakeServers, or call startTelegram() in the test first");
      return telegram;
    },
    async startTelegram(telegramOptions) {
      if (testTelegram) throw new Error("this test already started a fake Telegram server");
      testTelegram = await startFakeTelegram(telegramOptions);
      return testTelegram;
    },
    keep(gw) {
      kept.push(gw);
      return gw;
    },
    async kill(gw) {
      const index = kept.indexOf(gw);
      if (index >= 0) kept.splice(index, 1);
      await gw.stop("SIGKILL");
    },
  };
}

/** The fake model server and one gateway process on it, shared by a test file's tests. */
export interface FakeModelGateway {
  readonly model: FakeModelServer;
  readonly gw: GatewayProcess;
  readonly stateDir: string;
  /** The operator connection (with `operator: true` only). */
  readonly sock: TestSocket;
}

export interface FakeModelGatewayOptions {
  /** Top-level config sections laid over `fakeModelConfig` (its `extra`). */
  extra?: (stateDir: string) => Record<string, unknown>;
  /** Changes the config in place after `extra`. */
  configure?: (config: any) => void;
  /** Environment for the gateway process. */
  env?: Record<string, string>;
  /** Open an operator connection once the gateway is up. */
  operator?: true;
}

/**
 * Registers the file's vitest hooks: before the first test the fake model starts and a gateway
 * on a fresh state dir talks to it (`fakeModelConfig` with the options' changes), and with
 * `operator` an operator connects; after the last test the connection closes, the gateway stops
 * (SIGTERM) and the model closes. Before each test the model forgets its requests and replies.
 */
export function useFakeModelGateway(options: FakeModelGatewayOptions = {}): FakeModelGateway {
  const state: FixtureState<FakeModelGateway> = {};

  beforeAll(async () => {
    const model = (state.model = await startFakeModelServer());
    const stateDir = (state.stateDir = makeTempDir());
    let content = fakeModelConfig(model, stateDir, options.extra?.(stateDir));
    if (options.configure) {
      const config = JSON.parse(content);
      options.configure(config);
      content = JSON.stringify(config, null, 2);
    }
    const gw = (state.gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content }, ...(options.env ? { env: options.env } : {}) }));
    if (options.operator) state.sock = (await openOperator(gw.url, gw.token)).sock;
  });
  afterAll(async () => {
    state.sock?.close();
    await state.gw?.stop();
    await state.model?.close();
  });
  beforeEach(() => state.model?.reset());

  return startedFixture(state);
}
