import { describe, expect, it } from "vitest";
import { startFakeDiscord } from "../../fakes/discord-server.js";
import { startFakeSlack } from "../../fakes/slack-server.js";
import { startFakeTelegram } from "../../fakes/telegram-server.js";
import { rawJsonPost, sendFromKilledClient } from "../../helpers/killed-client.js";

/** A started platform fake as this test drives it: its send call, and the texts it recorded as sent. */
interface SendingFake {
  readonly url: string;
  readonly openConnections: number;
  dropConnections(): void;
  /** The send call: its path, JSON body for `text` and auth header. */
  path: string;
  body(text: string): Record<string, unknown>;
  headers: Record<string, string>;
  /** The texts of the send calls the fake recorded, in order. */
  sentTexts(): string[];
  close(): Promise<void>;
}

const FAKES: Array<[string, () => Promise<SendingFake>]> = [
  [
    "Telegram",
    async () => {
      const telegram = await startFakeTelegram();
      return Object.assign(telegram, {
        path: `/bot${telegram.token}/sendMessage`,
        body: (text: string) => ({ chat_id: 42, text }),
        headers: {},
        sentTexts: () => telegram.messages().map((body) => String(body.text)),
      });
    },
  ],
  [
    "Slack",
    async () => {
      const slack = await startFakeSlack();
      return Object.assign(slack, {
        url: slack.apiUrl,
        path: "/api/chat.postMessage",
        body: (text: string) => ({ channel: "D0OWNER", text }),
        headers: { authorization: `Bearer ${slack.botToken}` },
        sentTexts: () => slack.posted.map((post) => post.text),
      });
    },
  ],
  [
    "Discord",
    async () => {
      const discord = await startFakeDiscord({ guilds: [{ id: "900", name: "Guild", channels: [{ id: "901", name: "general", type: 0 }] }] });
      return Object.assign(discord, {
        url: discord.restUrl,
        path: "/api/v10/channels/901/messages",
        body: (text: string) => ({ content: text }),
        headers: { authorization: `Bot ${discord.token}` },
        sentTexts: () => discord.sent.filter((request) => request.method === "POST").map((request) => String((request.body as { content?: unknown }).content)),
      });
    },
  ],
];

describe.each(FAKES)("the fake %s server", (_name, start) => {
  it("dropConnections forgets a send a killed client made just before, so the next test sees only its own", async () => {
    const fake = await start();
    try {
      const port = Number(new URL(fake.url).port);
      await sendFromKilledClient(port, rawJsonPost(fake.path, fake.body("from a dead client"), fake.headers), () => fake.openConnections);
      expect(fake.sentTexts()).toEqual([]);
      fake.dropConnections();
      const response = await fetch(`http://127.0.0.1:${port}${fake.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...fake.headers },
        body: JSON.stringify(fake.body("from the next test")),
      });
      expect(response.ok).toBe(true);
      expect(fake.sentTexts()).toEqual(["from the next test"]);
    } finally {
      await fake.close();
    }
  });
});
