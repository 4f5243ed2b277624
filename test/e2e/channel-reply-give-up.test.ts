import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DeliveryLedger } from "../../src/channels/outbound/delivery-ledger.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { readEvents, writeRecorderHook } from "../helpers/hook-recorder.js";
import { waitUntil } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * A reply whose last delivery round fails: the gateway gives it up, says so in its log and
 * tells `message:sent` hooks it failed. The reply was owed from before a restart and had used
 * two of its three rounds, so the round after the restart is its last.
 */

const CHAT = 515;
const servers = useFakeServers({ telegram: true });

async function owedReplyOnItsLastRound(stateDir: string): Promise<void> {
  const ledger = DeliveryLedger.open(path.join(stateDir, "channels", "delivery-ledger.jsonl"));
  const target = { channel: "telegram", accountId: "default", chatId: String(CHAT) };
  ledger.expect("owed-1", target, { sessionKey: "agent:main:main", runId: "owed-1" });
  ledger.recordReply("owed-1", ["the owed answer"]);
  ledger.markAttemptFailed("owed-1", "Internal Server Error");
  ledger.markAttemptFailed("owed-1", "Internal Server Error");
  await ledger.whenDurable();
  ledger.close();
}

describe("a reply whose last delivery attempt fails", () => {
  it("is given up with a warning naming its channel, account, chat and last error, and message:sent hears success: false", { timeout: 60_000 }, async () => {
    const stateDir = makeTempDir("openclaw-give-up-");
    const log = path.join(stateDir, "events.jsonl");
    writeRecorderHook(stateDir, log);
    await owedReplyOnItsLastRound(stateDir);
    for (let i = 0; i < 3; i++) servers.telegram.failNext("sendMessage", { status: 500 });
    const telegramConfig = telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] });
    const config = fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramConfig }, hooks: { internal: { entries: { recorder: { enabled: true } } } } });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));

    await waitUntil(() => readEvents(log).some((e) => e.type === "message" && e.action === "sent"), 30_000, "message:sent");
    const sent = readEvents(log).filter((e) => e.type === "message" && e.action === "sent");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      sessionKey: "agent:main:main",
      context: { channel: "telegram", accountId: "default", to: String(CHAT), content: "the owed answer", success: false, deliveryId: "owed-1", runId: "owed-1" },
    });
    expect(sent[0]!.context.error).toMatch(/Internal Server Error/);
    const warning = await gateway.waitForOutput(/^.*reply given up.*$/m, 5_000);
    expect(JSON.parse(warning)).toMatchObject({
      level: 40,
      channel: "telegram",
      accountId: "default",
      chatId: String(CHAT),
      error: expect.stringMatching(/Internal Server Error/),
    });
    expect(servers.telegram.messages(CHAT)).toEqual([]);
  });
});

function configFor(stateDir: string, pollingTimeoutSeconds: number, telegramKeys: Record<string, unknown> = {}): string {
  const telegramConfig = telegramChannelConfig(servers.telegram, { pollingTimeoutSeconds, allowFrom: [String(CHAT)], ...telegramKeys });
  return fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramConfig } });
}

/** The final state the delivery ledger recorded for entry `id`, if any. */
function ledgerFinalState(stateDir: string, id: string): string | undefined {
  const lines = fs
    .readFileSync(path.join(stateDir, "channels", "delivery-ledger.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean);
  let state: string | undefined;
  for (const line of lines.map((l) => JSON.parse(l) as { op: string; id: string; state?: string; failed?: boolean })) {
    if (line.id !== id) continue;
    if (line.op === "finish") state ??= line.state;
    if (line.op === "attempt" && line.failed) state ??= "failed";
  }
  return state;
}

function textsIn(chat: number): unknown[] {
  return servers.telegram.messages(chat).map((m) => m.text);
}

/**
 * A `send` whose every attempt meets a platform error answers "delivery failed", and that is the
 * truth: its ledger entry is finished as failed, so nothing sends it later behind the caller's back.
 */

describe("a send whose platform keeps failing", () => {
  it("answers delivery failed, ends its ledger entry as failed and is not sent later, also not when its account restarts", { timeout: 90_000 }, async () => {
    const stateDir = makeTempDir("openclaw-send-failure-");
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor(stateDir, 1) } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const { sock } = await openOperator(gateway.url, gateway.token);
    try {
      for (let i = 0; i < 3; i++) servers.telegram.failNext("sendMessage", { status: 500 });
      const failed = await sock.request("send", { channel: "telegram", to: String(CHAT), message: "told it failed", idempotencyKey: "k1" }, 30_000);
      expect(failed.ok).toBe(false);
      expect(failed.error.message).toMatch(/delivery failed: .*Internal Server Error/);
      expect(ledgerFinalState(stateDir, "send:k1")).toBe("failed");

      // A restart of the account sends every entry it still owes at once, before a send queued after it.
      const getMeCalls = servers.telegram.calls.filter((c) => c.method === "getMe").length;
      fs.writeFileSync(path.join(stateDir, "openclaw.json"), configFor(stateDir, 2));
      await servers.telegram.waitFor(() => servers.telegram.calls.filter((c) => c.method === "getMe").length > getMeCalls, 15_000);
      const marker = await sock.request("send", { channel: "telegram", to: String(CHAT), message: "marker", idempotencyKey: "k2" }, 30_000);
      expect(marker.ok).toBe(true);
      expect(textsIn(CHAT)).toEqual(["marker"]);
    } finally {
      sock.close();
    }
  });
});

/**
 * A send split in parts whose platform fails part-way: the caller is told which parts went
 * out, and sending it again with the same idempotencyKey sends only the parts that did not.
 */

const PARTS_CHAT = 616;
const PARTS = ["a".repeat(80), "b".repeat(80), "c".repeat(80)];

describe("a send in several parts whose platform fails part-way", () => {
  it("tells the caller which parts went out, and the same idempotencyKey again sends only the rest", { timeout: 60_000 }, async () => {
    const stateDir = makeTempDir("openclaw-send-partial-");
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor(stateDir, 1, { textChunkLimit: 100 }) } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    const { sock } = await openOperator(gateway.url, gateway.token);
    try {
      for (let i = 0; i < 3; i++) servers.telegram.failNext("sendMessage", { status: 500 }, { afterSuccesses: i === 0 ? 1 : 0 });
      const params = { channel: "telegram", to: String(PARTS_CHAT), message: PARTS.join("\n\n"), idempotencyKey: "long-1" };
      const failed = await sock.request("send", params, 30_000);
      expect(failed.ok).toBe(false);
      expect(textsIn(PARTS_CHAT)).toEqual([PARTS[0]]);
      expect(failed.error.message).toMatch(/1 of 3 parts went out/);
      expect(failed.error.message).toMatch(/Internal Server Error/);

      const retried = await sock.request("send", params, 30_000);
      expect(retried.ok).toBe(true);
      expect(textsIn(PARTS_CHAT)).toEqual(PARTS);
      expect(retried.payload.messageIds).toHaveLength(3);
      expect(failed.error.message).toContain(`message ids ${retried.payload.messageIds[0]})`);
    } finally {
      sock.close();
    }
  });
});
