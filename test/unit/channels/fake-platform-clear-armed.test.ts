import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startFakeDiscord } from "../../fakes/discord-server.js";
import { startFakeSlack } from "../../fakes/slack-server.js";
import { startFakeTelegram } from "../../fakes/telegram-server.js";
import { useFakeServers } from "../../helpers/fake-servers.js";
import { rawJsonPost, sendFromKilledClient } from "../../helpers/killed-client.js";

/** A started platform fake as this test drives it: what a test can arm on it, and its send call. */
interface ArmableFake {
  /** Arms a failure and a hang of the send call, and stalls the fake's polling or socket. */
  armAll(): void;
  clearArmed(): void;
  /** Sends `text` through the send call; rejects when no answer comes within 2 s. */
  send(text: string): Promise<Response>;
  /** The texts of the send calls the fake answered, in order. */
  sentTexts(): string[];
  /** Resolves once the fake's polling or socket greets a new client as usual (not stalled). */
  greets(): Promise<void>;
  close(): Promise<void>;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(2000) });

/** Resolves with the first frame a new WebSocket on `url` gets; rejects after 2 s without one. */
function firstFrame(url: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no frame from ${url} within 2 s`));
    }, 2000);
    socket.on("error", reject);
    socket.once("message", (data) => {
      clearTimeout(timer);
      socket.terminate();
      resolve(JSON.parse(data.toString()) as Record<string, unknown>);
    });
  });
}

const FAKES: Array<[string, () => Promise<ArmableFake>]> = [
  [
    "Telegram",
    async () => {
      const telegram = await startFakeTelegram();
      return {
        armAll() {
          telegram.failNext("sendMessage", { status: 500 }, { afterSuccesses: 1 });
          telegram.hangNext("sendMessage");
          telegram.conflictPolling(true);
        },
        clearArmed: () => telegram.clearArmed(),
        send: (text) => post(`${telegram.url}/bot${telegram.token}/sendMessage`, { chat_id: 42, text }),
        sentTexts: () => telegram.messages().map((body) => String(body.text)),
        async greets() {
          const response = await post(`${telegram.url}/bot${telegram.token}/getUpdates`, { timeout: 0 });
          expect(response.status).toBe(200);
        },
        close: () => telegram.close(),
      };
    },
  ],
  [
    "Slack",
    async () => {
      const slack = await startFakeSlack();
      return {
        armAll() {
          slack.failNext("chat.postMessage", { error: "channel_not_found" });
          slack.hangNext("chat.postMessage");
          slack.stallSockets(true);
        },
        clearArmed: () => slack.clearArmed(),
        send: (text) => post(`${slack.apiUrl}chat.postMessage`, { channel: "D0OWNER", text }, { authorization: `Bearer ${slack.botToken}` }),
        sentTexts: () => slack.posted.map((posted) => posted.text),
        async greets() {
          expect((await firstFrame(`${slack.apiUrl.replace(/^http/, "ws").replace(/\/api\/$/, "")}/socket`)).type).toBe("hello");
        },
        close: () => slack.close(),
      };
    },
  ],
  [
    "Discord",
    async () => {
      const discord = await startFakeDiscord({ guilds: [{ id: "900", name: "Guild", channels: [{ id: "901", name: "general", type: 0 }] }] });
      return {
        armAll() {
          discord.failNext("POST /channels/901/messages", { status: 500 });
          discord.hangNext("POST /channels/901/messages");
          discord.stallGateway(true);
        },
        clearArmed: () => discord.clearArmed(),
        send: (text) => post(`${discord.restUrl}/v10/channels/901/messages`, { content: text }, { authorization: `Bot ${discord.token}` }),
        sentTexts: () => discord.messages("901").map((message) => message.content),
        async greets() {
          expect((await firstFrame(`${discord.gatewayUrl}/?v=10&encoding=json`)).op).toBe(10);
        },
        close: () => discord.close(),
      };
    },
  ],
];

describe.each(FAKES)("the fake %s server", (_name, start) => {
  it("clearArmed forgets the failures, hangs and stalls a test armed but did not use, so the next call is answered as usual", async () => {
    const fake = await start();
    try {
      fake.armAll();
      fake.clearArmed();
      const first = await fake.send("first after clearArmed");
      expect(first.ok).toBe(true);
      const second = await fake.send("second after clearArmed");
      expect(second.ok).toBe(true);
      expect(fake.sentTexts()).toEqual(["first after clearArmed", "second after clearArmed"]);
      await fake.greets();
    } finally {
      await fake.close();
    }
  });
});

// The two tests run in order: the first arms what the second would meet if the file's fake kept it.
describe("useFakeServers between two tests", () => {
  const servers = useFakeServers({ telegram: true });

  it("a test arms a sendMessage failure, a hang and a polling conflict and uses none of them", () => {
    servers.telegram.failNext("sendMessage", { status: 500 });
    servers.telegram.hangNext("sendMessage");
    servers.telegram.conflictPolling(true);
  });

  it("the next test's sendMessage and getUpdates are answered as usual: nothing the test before armed reaches it", async () => {
    const { url, token } = servers.telegram;
    const sent = await post(`${url}/bot${token}/sendMessage`, { chat_id: 42, text: "the next test" });
    expect(sent.status).toBe(200);
    const polled = await post(`${url}/bot${token}/getUpdates`, { timeout: 0 });
    expect(polled.status).toBe(200);
  });
});

/** A platform fake whose send call a test can hold, fail and release. */
interface HoldingFake {
  readonly openConnections: number;
  /** Arms a hang of the send call, then (`fail`) a failure of it. */
  hang(): void;
  fail(): void;
  release(): void;
  readonly port: number;
  /** The send call as raw HTTP, for a client that is killed after sending it. */
  rawSend(text: string): string;
  /** Sends `text` through the send call. */
  send(text: string): Promise<Response>;
  /** Whether the fake has received a send call (held ones included). */
  received(): boolean;
  close(): Promise<void>;
}

const HOLDING_FAKES: Array<[string, () => Promise<HoldingFake>]> = [
  [
    "Slack",
    async () => {
      const slack = await startFakeSlack();
      return {
        get openConnections() {
          return slack.openConnections;
        },
        hang: () => slack.hangNext("chat.postMessage"),
        fail: () => slack.failNext("chat.postMessage", { status: 500 }),
        release: () => slack.release(),
        port: Number(new URL(slack.apiUrl).port),
        rawSend: (text) => rawJsonPost("/api/chat.postMessage", { channel: "D0OWNER", text }, { authorization: `Bearer ${slack.botToken}` }),
        send: (text) => post(`${slack.apiUrl}chat.postMessage`, { channel: "D0OWNER", text }, { authorization: `Bearer ${slack.botToken}` }),
        received: () => slack.calls.some((call) => call.method === "chat.postMessage"),
        close: () => slack.close(),
      };
    },
  ],
  [
    "Discord",
    async () => {
      const discord = await startFakeDiscord({ guilds: [{ id: "900", name: "Guild", channels: [{ id: "901", name: "general", type: 0 }] }] });
      return {
        get openConnections() {
          return discord.openConnections;
        },
        hang: () => discord.hangNext("POST /channels/901/messages"),
        fail: () => discord.failNext("POST /channels/901/messages", { status: 500 }),
        release: () => discord.release(),
        port: Number(new URL(discord.restUrl).port),
        rawSend: (text) => rawJsonPost("/api/v10/channels/901/messages", { content: text }, { authorization: `Bot ${discord.token}` }),
        send: (text) => post(`${discord.restUrl}/v10/channels/901/messages`, { content: text }, { authorization: `Bot ${discord.token}` }),
        received: () => discord.sent.some((request) => request.method === "POST"),
        close: () => discord.close(),
      };
    },
  ],
];

describe.each(HOLDING_FAKES)("the fake %s server's held calls", (_name, start) => {
  it("a held call whose client went away takes no failure armed after it when released: the next call meets that failure", async () => {
    const fake = await start();
    try {
      fake.hang();
      await sendFromKilledClient(fake.port, fake.rawSend("from a client that went away"), () => fake.openConnections);
      await waitUntil(() => fake.received() && fake.openConnections === 0);
      fake.fail();
      fake.release();
      const next = await fake.send("the next call");
      expect(next.status).toBe(500);
    } finally {
      await fake.close();
    }
  });
});

async function waitUntil(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met within 2 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
