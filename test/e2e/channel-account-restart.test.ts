import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, requestMessages, sleep, waitUntil, waitUntilGateway } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * A reply whose Telegram account is not running when it is ready: a config reload restarts the
 * account and its start hangs (the fake holds `getMe`), or the reload disables it for good.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const OWNER = 111;
const servers = useFakeServers();

function configFor(stateDir: string, telegramExtra: Record<string, unknown> = {}): string {
  const telegramConfig = telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)], ...telegramExtra });
  return fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramConfig } });
}

async function start(): Promise<GatewayProcess> {
  const stateDir = makeTempDir();
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor(stateDir) } });
  servers.keep(gw);
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

/** A reload restarts the account; its start hangs on getMe until `servers.telegram.release()`. */
async function restartHangingAccount(gw: GatewayProcess): Promise<void> {
  servers.telegram.hangNext("getMe");
  // The longest long-poll timeout keeps the client from giving up on the held getMe first.
  fs.writeFileSync(path.join(gw.stateDir, "openclaw.json"), configFor(gw.stateDir, { pollingTimeoutSeconds: 50 }));
  await servers.telegram.waitFor(() => servers.telegram.calls.some((c) => c.method === "getMe" && c.status === 0), 10_000);
}

/** The model's answer waits until the test lets it go. */
function holdModelAnswer(text: string): () => void {
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  servers.model.setResponder(async () => {
    await held;
    return { text };
  });
  return answer;
}

/** A message accepted while the account runs, whose answer the model holds. */
async function messageAwaitingItsAnswer(text: string): Promise<{ gw: GatewayProcess; answer: () => void }> {
  const answer = holdModelAnswer(text);
  const gw = await start();
  servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "hello", messageId: 1 });
  await waitUntil(() => chatRequests(servers.model).length === 1, 10_000, "the model request");
  return { gw, answer };
}

/**
 * Sends "first" to the owner, which Telegram answers with a 429 (retry after 15 s): the account's
 * sends wait behind it. Resolves once the 429 was given, with the send's pending answer.
 */
async function sendFirstIntoA429(sock: TestSocket): Promise<{ first: Promise<Frame> }> {
  servers.telegram.failNext("sendMessage", { status: 429, retryAfter: 15 });
  const first = sock.request("send", { channel: "telegram", to: String(OWNER), message: "first", idempotencyKey: "first" }, 60_000);
  await servers.telegram.waitFor(() => servers.telegram.calls.some((c) => c.method === "sendMessage" && c.status === 429), 10_000);
  return { first };
}

/** A copy of the package (bin, package.json) whose node_modules links every installed package but `missing`. */
function packageWithout(missing: string): { cli: string; install(): void } {
  const dir = makeTempDir("openclaw-no-sdk-");
  fs.cpSync(path.join(ROOT, "dist", "bin"), path.join(dir, "dist", "bin"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(dir, "package.json"));
  const installed = path.join(ROOT, "node_modules");
  fs.mkdirSync(path.join(dir, "node_modules"));
  for (const name of fs.readdirSync(installed)) {
    if (name !== missing) fs.symlinkSync(path.join(installed, name), path.join(dir, "node_modules", name));
  }
  return {
    cli: path.join(dir, "dist", "bin", "openclaw.cjs"),
    install: () => fs.symlinkSync(path.join(installed, missing), path.join(dir, "node_modules", missing)),
  };
}

const repliesTo = (chatId: number) => servers.telegram.messages(chatId).map((m) => String(m.text));

describe("a reply while its channel account is not running", () => {
  it("waits for its account without spending attempts, so a platform error after the restart is still retried", { timeout: 150_000 }, async () => {
    await servers.startTelegram();
    const { gw, answer } = await messageAwaitingItsAnswer("worth the wait");
    await restartHangingAccount(gw);
    answer();
    await gw.waitForOutput(/channel account not running/, 10_000);
    // The account stays down past the first redelivery round (30 s)…
    await sleep(35_000);
    expect(repliesTo(OWNER)).toEqual([]);
    // …and the first send once it runs meets a passing platform error (three 500s: one failed round).
    for (let i = 0; i < 3; i++) servers.telegram.failNext("sendMessage", { status: 500 });
    servers.telegram.release();
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 60_000);
    expect(repliesTo(OWNER)).toEqual(["worth the wait"]);
  });

  it("fails at once when the account was disabled meanwhile, naming the account and the fix", async () => {
    await servers.startTelegram();
    const { gw, answer } = await messageAwaitingItsAnswer("never sent");
    fs.writeFileSync(path.join(gw.stateDir, "openclaw.json"), configFor(gw.stateDir, { enabled: false }));
    await gw.waitForOutput(/channel config changed; restarting the account/, 10_000);
    answer();
    await gw.waitForOutput(/channel telegram account default is disabled \(set enabled: true under channels\.telegram to send through it\); the reply was not sent/, 10_000);
    expect(repliesTo(OWNER)).toEqual([]);
  });

  it("a cron job's reply made while its account restarts waits for it, is delivered once, and its run says delivered", { timeout: 120_000 }, async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "Scheduled report" }));
    const gw = await start();
    const cliEnv = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token!, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    const added = await runCli(
      ["cron", "add", "--name", "report", "--cron", "0 9 * * *", "--message", "Write the report", "--channel", "telegram", "--to", String(OWNER), "--json"],
      cliEnv,
    );
    expect(added.code, added.output).toBe(0);
    const jobId = JSON.parse(added.output).job.id as string;
    await restartHangingAccount(gw);
    const ran = await runCli(["cron", "run", jobId], cliEnv);
    expect(ran.code, ran.output).toBe(0);
    // The reply is ready while the account is still starting.
    await gw.waitForOutput(/channel account not running|cron run reply not delivered/, 15_000);
    servers.telegram.release();
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 20_000);
    let entry: Record<string, unknown> | undefined;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && entry?.deliveryStatus !== "delivered"; ) {
      entry = JSON.parse((await runCli(["cron", "runs", jobId, "--json"], cliEnv)).output).entries[0];
    }
    expect(entry).toMatchObject({ status: "ok", deliveryStatus: "delivered" });
    expect(repliesTo(OWNER)).toEqual(["Scheduled report"]);
  });
});

/** Whether the delivery ledger holds the chunks of a `send` entry whose key starts with `key` (recorded, about to be sent). */
function ledgerRecorded(stateDir: string, key: string): boolean {
  const file = path.join(stateDir, "channels", "delivery-ledger.jsonl");
  if (!fs.existsSync(file)) return false;
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .some((line) => line.includes('"op":"reply"') && line.includes(`"id":"send:${key}`));
}

describe("an interactive send while its channel account restarts", () => {
  it("a send RPC whose account goes down after its check answers soon with an error naming the account and that it restarts", { timeout: 120_000 }, async () => {
    await servers.startTelegram();
    const gw = await start();
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      // The first send meets a 429 and waits for its retry: the second passes its account check and queues behind it.
      const { first } = await sendFirstIntoA429(sock);
      const second = sock.request("send", { channel: "telegram", to: String(OWNER), message: "second", idempotencyKey: "second" }, 60_000);
      await waitUntilGateway(gw, () => ledgerRecorded(gw.stateDir, "second"), 10_000, "the second send recorded");
      await restartHangingAccount(gw);
      const refused = await second;
      expect(refused.ok).toBe(false);
      expect(refused.error.message).toMatch(/channel telegram account default is restarting.*try again in a moment/);
      expect(repliesTo(OWNER)).not.toContain("second");
      await first;
    } finally {
      sock.close();
    }
  });

  it("the agent's message tool whose account goes down after its check gets the same error as its tool result, and the turn goes on", { timeout: 120_000 }, async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => {
      const last = requestMessages(req).at(-1);
      if (last?.role === "tool") return { text: "noted" };
      return { toolCalls: [{ name: "message", arguments: { channel: "telegram", to: String(OWNER), message: "from the tool" } }] };
    });
    const gw = await start();
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const { first } = await sendFirstIntoA429(sock);
      const turn = await sock.request("chat.send", { sessionKey: "main", message: "tell the owner", idempotencyKey: "turn-1" });
      expect(turn.ok).toBe(true);
      await waitUntilGateway(gw, () => ledgerRecorded(gw.stateDir, "tool:"), 10_000, "the tool's send recorded");
      await restartHangingAccount(gw);
      await waitUntilGateway(gw, () => chatRequests(servers.model).length === 2, 60_000, "the model call after the tool result");
      const toolResult = requestMessages(chatRequests(servers.model)[1]!).at(-1)!;
      expect(toolResult.role).toBe("tool");
      expect(toolResult.text).toMatch(/channel telegram account default is restarting.*try again in a moment/);
      expect(repliesTo(OWNER)).not.toContain("from the tool");
      await first;
    } finally {
      sock.close();
    }
  });
});

describe("a config reload while an account's start hangs", () => {
  it("is applied at once, not after the hanging start: the account restarts with the newer config and answers", { timeout: 60_000 }, async () => {
    await servers.startTelegram();
    const gw = await start();
    await restartHangingAccount(gw);
    fs.writeFileSync(path.join(gw.stateDir, "openclaw.json"), configFor(gw.stateDir, { pollingTimeoutSeconds: 2 }));
    await waitUntil(() => (gw.output().match(/channel config changed; restarting the account/g) ?? []).length === 2, 10_000, "the second reload");
    await waitUntil(() => (gw.output().match(/channel account started/g) ?? []).length === 2, 10_000, "the account started with the newer config");
    servers.model.setResponder(() => ({ text: "back" }));
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "hello", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 15_000);
    expect(repliesTo(OWNER)).toEqual(["back"]);
  });
});

/**
 * A channel plugin whose SDK package is not installed fails to load, and the error says what
 * fixes it: install the package and restart the gateway process (Node keeps the failed import for
 * the life of the process). The gateway runs from a copy of the bin beside a node_modules without
 * grammY; once grammY is there, a new gateway process loads the plugin and answers.
 */
describe("a channel plugin whose package is missing", () => {
  it("fails saying to install the package and restart the gateway process, and a new process loads it", { timeout: 60_000 }, async () => {
    await servers.startTelegram();
    const pkg = packageWithout("grammy");
    const stateDir = makeTempDir();
    const options = { stateDir, cli: pkg.cli, configFile: { name: "openclaw.json", content: configFor(stateDir) } };
    const first = servers.keep(await startGateway(options));
    const failure = JSON.parse(await first.waitForOutput(/^.*channel plugin failed to load.*$/m, 15_000)) as { err: string };
    expect(failure.err).toMatch(/Cannot find package 'grammy'.*install the package.*restart the gateway process \(openclaw gateway restart/);
    const { sock } = await openOperator(first.url, first.token);
    try {
      const status = await sock.request("channels.status", {});
      expect(JSON.stringify(status.payload)).toMatch(/plugin failed to load: .*restart the gateway process/);
    } finally {
      sock.close();
    }
    await first.stop("SIGTERM");

    pkg.install();
    const second = servers.keep(await startGateway(options));
    await second.waitForOutput(/channel account started/, 15_000);
    servers.model.setResponder(() => ({ text: "loaded" }));
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "hello", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 15_000);
    expect(repliesTo(OWNER)).toEqual(["loaded"]);
  });
});
