import { Writable } from "node:stream";
import pino from "pino";
import slackPlugin from "../../../../extensions/slack/index.js";
import type { ChannelAccount, ChannelAccountContext, ChannelAccountStatus, InboundMessage, InboundReaction, ChannelHttpRoute } from "../../../../src/channels/types.js";
import type { FakeSlack } from "../../../fakes/slack-server.js";

export interface SlackHarness {
  account: ChannelAccount;
  inbound: InboundMessage[];
  /** Reactions `onReaction` received, in order. */
  reactions: InboundReaction[];
  status: Partial<ChannelAccountStatus>;
  routes: ChannelHttpRoute[];
  /** Every log line at any level (SDK debug chatter included), for secret-leak checks. */
  logs: string[];
}

/**
 * A Slack account against the fake, with a stub gateway context that records what the plugin
 * hands over. `onInbound` can be replaced to make the "gateway" slow.
 */
export function createSlackHarness(fake: FakeSlack, config: Record<string, unknown> = {}, onInbound?: (envelope: InboundMessage) => Promise<void>): SlackHarness {
  const inbound: InboundMessage[] = [];
  const reactions: InboundReaction[] = [];
  const status: Partial<ChannelAccountStatus> = {};
  const routes: ChannelHttpRoute[] = [];
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const context: ChannelAccountContext = {
    accountId: "default",
    config: { botToken: fake.botToken, appToken: fake.appToken, slackApiUrl: fake.apiUrl, ...config },
    stateDir: "/nonexistent/slack-state",
    logger: pino({ level: "debug" }, sink),
    onInbound: async (envelope) => {
      inbound.push(envelope);
      await onInbound?.(envelope);
    },
    onReaction: async (reaction) => void reactions.push(reaction),
    registerHttpRoute: (route) => void routes.push(route),
    reportStatus: (patch) => void Object.assign(status, patch),
    nativeCommands: async () => [],
  };
  return { account: slackPlugin.createAccount(context, {}), inbound, reactions, status, routes, logs };
}
