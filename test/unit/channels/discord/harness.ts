import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import discordPlugin from "../../../../extensions/discord/index.js";
import type { ChannelAccount, ChannelAccountContext, ChannelAccountStatus, InboundMessage, InboundReaction } from "../../../../src/channels/types.js";
import { startFakeDiscord, waitFor, type FakeDiscord, type FakeDiscordOptions } from "../../../fakes/discord-server.js";

export const BOT_ID = "900000000000000001";
export const GUILD_ID = "100000000000000001";
export const GENERAL_ID = "200000000000000001";
export const THREAD_ID = "200000000000000002";
export const MOD_ROLE_ID = "300000000000000001";
export const BOT_ROLE_ID = "300000000000000002";

/** One guild with a text channel, a public thread under it, a plain role and the bot's managed role. */
export const FAKE_OPTIONS: FakeDiscordOptions = {
  botId: BOT_ID,
  heartbeatIntervalMs: 500,
  guilds: [
    {
      id: GUILD_ID,
      name: "Test Guild",
      channels: [
        { id: GENERAL_ID, name: "general", type: 0 },
        { id: THREAD_ID, name: "a thread", type: 11, parentId: GENERAL_ID },
      ],
      roles: [
        { id: MOD_ROLE_ID, name: "mod" },
        { id: BOT_ROLE_ID, name: "fakebot", botId: BOT_ID },
      ],
    },
  ],
};

/** A stub `ChannelAccountContext` that records what the plugin hands the core. */
export interface StubContext {
  context: ChannelAccountContext;
  envelopes: InboundMessage[];
  /** Reactions `onReaction` received, in order. */
  reactions: InboundReaction[];
  status: Partial<ChannelAccountStatus>;
  /** Every log line, as written (JSON). */
  logs: string[];
  stateDir: string;
  /** Replaces the default `onInbound` (which records the envelope and resolves). */
  setOnInbound(handler: (envelope: InboundMessage) => Promise<void>): void;
  /** Replaces the default `onReaction` (which records the reaction and resolves). */
  setOnReaction(handler: (reaction: InboundReaction) => Promise<void>): void;
}

export function stubContext(config: Record<string, unknown>, accountId = "default"): StubContext {
  const envelopes: InboundMessage[] = [];
  const reactions: InboundReaction[] = [];
  const status: Partial<ChannelAccountStatus> = {};
  const logs: string[] = [];
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "discord-plugin-"));
  let onInbound = async (envelope: InboundMessage) => {
    envelopes.push(envelope);
  };
  let onReaction = async (reaction: InboundReaction) => {
    reactions.push(reaction);
  };
  const logger = pino({ level: "trace" }, { write: (line: string) => void logs.push(line) });
  return {
    envelopes,
    reactions,
    status,
    logs,
    stateDir,
    setOnInbound(handler) {
      onInbound = handler;
    },
    setOnReaction(handler) {
      onReaction = handler;
    },
    context: {
      accountId,
      config,
      stateDir,
      logger,
      onInbound: (envelope) => onInbound(envelope),
      onReaction: (reaction) => onReaction(reaction),
      registerHttpRoute: () => {
        throw new Error("the discord plugin serves no HTTP routes");
      },
      reportStatus: (patch) => void Object.assign(status, patch),
      nativeCommands: async () => [],
    },
  };
}

export interface Running {
  fake: FakeDiscord;
  account: ChannelAccount;
  stub: StubContext;
  /** Stops the account, closes the fake, removes the state dir. */
  cleanup(): Promise<void>;
}

/** A fake Discord plus a started account pointed at it; waits for READY unless `waitReady: false`. */
export async function startAccount(options: { config?: Record<string, unknown>; fake?: FakeDiscordOptions; waitReady?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Running> {
  const fake = await startFakeDiscord(options.fake ?? FAKE_OPTIONS);
  const stub = stubContext({ token: fake.token, restApiUrl: fake.restUrl, ...options.config });
  const account = discordPlugin.createAccount(stub.context, options.env ?? {});
  await account.start();
  if (options.waitReady !== false) await waitFor(() => stub.status.connected === true, 5000, "the account to report connected");
  return {
    fake,
    account,
    stub,
    async cleanup() {
      await account.stop();
      await fake.close();
      fs.rmSync(stub.stateDir, { recursive: true, force: true });
    },
  };
}

/** Waits until an envelope with this message id arrived and returns it. */
export async function envelopeFor(stub: StubContext, messageId: string): Promise<InboundMessage> {
  await waitFor(() => stub.envelopes.some((e) => e.messageId === messageId), 3000, `envelope ${messageId}`);
  return stub.envelopes.find((e) => e.messageId === messageId)!;
}
