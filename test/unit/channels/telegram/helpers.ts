import pino from "pino";
import type { ChannelAccount, ChannelAccountContext, ChannelAccountStatus, InboundMessage, InboundReaction, ChannelHttpRoute } from "../../../../src/channels/types.js";
import telegramPlugin from "../../../../extensions/telegram/index.js";
import type { FakeTelegram } from "../../../fakes/telegram-server.js";

export interface StubContext {
  context: ChannelAccountContext;
  /** Envelopes `onInbound` accepted, in order. */
  inbound: InboundMessage[];
  /** Reactions `onReaction` received, in order. */
  reactions: InboundReaction[];
  routes: ChannelHttpRoute[];
  /** The status as the gateway would see it: every patch merged. */
  status: Partial<ChannelAccountStatus>;
  /** Every patch, in order. */
  statusPatches: Array<Partial<ChannelAccountStatus>>;
  /** Every log line (JSON), for checks that no token leaks. */
  logs: string[];
  /** Replaces what `onInbound` does (default: record and resolve). */
  setInbound(handler: (envelope: InboundMessage) => Promise<void>): void;
}

export function createStubContext(config: Record<string, unknown>, accountId = "default"): StubContext {
  const inbound: InboundMessage[] = [];
  const reactions: InboundReaction[] = [];
  const routes: ChannelHttpRoute[] = [];
  const status: Partial<ChannelAccountStatus> = {};
  const statusPatches: Array<Partial<ChannelAccountStatus>> = [];
  const logs: string[] = [];
  let handler = async (envelope: InboundMessage) => {
    inbound.push(envelope);
  };
  const logger = pino({ level: "trace" }, { write: (line: string) => logs.push(line) });
  const context: ChannelAccountContext = {
    accountId,
    config,
    stateDir: "/nonexistent/telegram-state (unused by the plugin)",
    logger,
    onInbound: (envelope) => handler(envelope),
    onReaction: async (reaction) => void reactions.push(reaction),
    registerHttpRoute: (route) => routes.push(route),
    reportStatus: (patch) => {
      statusPatches.push(patch);
      Object.assign(status, patch);
    },
    nativeCommands: async () => [],
  };
  return {
    context,
    inbound,
    reactions,
    routes,
    status,
    statusPatches,
    logs,
    setInbound(next) {
      handler = next;
    },
  };
}

/** Config pointing an account at the fake, with fast polling and backoff. */
export function fakeConfig(fake: FakeTelegram, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { botToken: fake.token, apiRoot: fake.url, pollingTimeoutSeconds: 1, pollingRetryBaseMs: 50, ...extra };
}

/** Creates accounts against the fake and stops them all in `cleanup` (call it in afterEach). */
export function accountFactory() {
  const accounts: ChannelAccount[] = [];
  return {
    create(config: Record<string, unknown>, accountId = "default", env: NodeJS.ProcessEnv = {}) {
      const stub = createStubContext(config, accountId);
      const account = telegramPlugin.createAccount(stub.context, env);
      accounts.push(account);
      return { ...stub, account };
    },
    async cleanup() {
      await Promise.all(accounts.splice(0).map((account) => account.stop()));
    },
  };
}

export function waitUntil(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (predicate()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`condition not met within ${timeoutMs} ms`));
      setTimeout(check, 5);
    };
    check();
  });
}
