import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { startInProcessGateway } from "../helpers/in-process-gateway.js";
import { ManualClock } from "../helpers/manual-clock.js";
import fs from "node:fs";
import path from "node:path";
import { systemPromptOf } from "../helpers/model-request.js";
import { lastUserText, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * A job made with `openclaw cron add` ("every day at 09:00 Europe/Berlin") runs when the
 * scheduler's clock reaches 09:00 in Berlin: an isolated turn whose answer arrives once in the
 * Telegram chat. The gateway runs in this process so the test can move the scheduler's clock;
 * the CLI, the model and Telegram are real processes and servers.
 */

const CHAT = 111;
const servers = useFakeServers({ telegram: true });

const textsIn = (chatId: number) => servers.telegram.messages(chatId).map((m) => String(m.text));

describe("cron end to end", { timeout: 120_000 }, () => {
  it("a daily 09:00 Europe/Berlin job made by the CLI answers once in the Telegram chat when the clock gets there", async () => {
    // 08:00 in Berlin (CEST, UTC+2) on 1 June 2026.
    const clock = new ManualClock(Date.parse("2026-06-01T06:00:00Z"));
    const stateDir = makeTempDir("openclaw-cron-e2e-");
    let turns = 0;
    servers.model.setResponder((req) => {
      turns++;
      return { text: `Report #${turns}: ${lastUserText(req)}` };
    });
    const channels = {
      telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] }),
    };
    const gateway = servers.keep(await startInProcessGateway({ stateDir, config: fakeModelConfig(servers.model, stateDir, { channels }), cronClock: clock }));
    await waitUntil(() => /channel account started/.test(gateway.log()), 15_000);

    const added = await runCli(
      [
        "cron",
        "add",
        "--name",
        "morning report",
        "--cron",
        "0 9 * * *",
        "--tz",
        "Europe/Berlin",
        "--message",
        "Write the morning report",
        "--channel",
        "telegram",
        "--to",
        String(CHAT),
        "--json",
      ],
      gateway.cliEnv,
    );
    expect(added.code, added.output).toBe(0);
    const job = JSON.parse(added.output).job;
    expect(job.sessionTarget).toBe("isolated");
    // 09:00 in Berlin is 07:00 UTC, plus the job's stagger (under 5 minutes: the expression is on the hour).
    expect(job.state.nextRunAtMs - Date.parse("2026-06-01T07:00:00Z")).toBe(job.schedule.staggerMs);
    expect(job.schedule.staggerMs).toBeLessThan(5 * 60_000);

    clock.advance(59 * 60_000);
    expect(turns).toBe(0);
    clock.setTo(Date.parse("2026-06-01T07:05:00Z"));
    await servers.telegram.waitFor(() => textsIn(CHAT).length === 1, 20_000);
    expect(textsIn(CHAT)).toEqual(["Report #1: Write the morning report"]);

    // The run row settles after the send: poll the CLI until it shows the delivery.
    let entry: Record<string, unknown> | undefined;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
      const runs = await runCli(["cron", "runs", job.id, "--json"], gateway.cliEnv);
      entry = JSON.parse(runs.output).entries[0];
      if (entry?.deliveryStatus === "delivered") break;
    }
    expect(entry).toMatchObject({ status: "ok", deliveryStatus: "delivered", sessionKey: `agent:main:cron:${job.id}` });

    // A day later it runs again, once; nothing in between.
    clock.setTo(Date.parse("2026-06-02T06:59:00Z"));
    expect(textsIn(CHAT)).toHaveLength(1);
    clock.setTo(Date.parse("2026-06-02T07:05:00Z"));
    await servers.telegram.waitFor(() => textsIn(CHAT).length === 2, 20_000);
    expect(textsIn(CHAT)).toEqual(["Report #1: Write the morning report", "Report #2: Write the morning report"]);
    expect(turns).toBe(2);
  });

  it("an announce to a channel this gateway does not have is refused naming delivery.channel and the choices, and nothing is stored", async () => {
    const stateDir = makeTempDir("openclaw-cron-e2e-");
    const channels = { telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] }) };
    const gateway = servers.keep(await startInProcessGateway({ stateDir, config: fakeModelConfig(servers.model, stateDir, { channels }), cronClock: new ManualClock(Date.now()) }));
    const { sock } = await openOperator(gateway.url, gateway.token, { scopes: ["operator.admin"] });
    try {
      const job = (delivery: Record<string, unknown>) => ({
        name: "x",
        schedule: { kind: "every", every: "1h" },
        sessionTarget: "isolated",
        payload: { kind: "agentTurn", message: "m" },
        delivery,
      });
      const pigeon = await sock.request("cron.add", job({ mode: "announce", channel: "pigeon", to: "1" }));
      expect(pigeon.error.message).toMatch(/^delivery\.channel: unknown channel "pigeon" \(expected one of: telegram, discord, slack\)/);
      const discord = await sock.request("cron.add", job({ mode: "announce", channel: "discord", to: "1" }));
      expect(discord.error.message).toMatch(/^delivery\.channel: channel discord is not configured/);
      const account = await sock.request("cron.add", job({ mode: "announce", channel: "telegram", to: "1", accountId: "other" }));
      expect(account.error.message).toMatch(/^delivery\.accountId: channel telegram has no account "other" \(accounts: default\)/);
      expect((await sock.request("cron.list", {})).payload.jobs).toEqual([]);
      const fine = await sock.request("cron.add", job({ mode: "announce", channel: "telegram", to: String(CHAT) }));
      expect(fine.ok).toBe(true);
      const moved = await sock.request("cron.update", { id: fine.payload.id, patch: { delivery: { mode: "announce", channel: "slack", to: "C1" } } });
      expect(moved.error.message).toMatch(/^delivery\.channel: channel slack is not configured/);
      expect((await sock.request("cron.get", { id: fine.payload.id })).payload.delivery.channel).toBe("telegram");
    } finally {
      sock.close();
    }
  });

  it("the CLI refuses a job with an invalid expression or time zone and the gateway keeps none", async () => {
    const clock = new ManualClock(Date.parse("2026-06-01T06:00:00Z"));
    const stateDir = makeTempDir("openclaw-cron-e2e-");
    const gateway = servers.keep(await startInProcessGateway({ stateDir, config: fakeModelConfig(servers.model, stateDir), cronClock: clock }));
    const badExpr = await runCli(["cron", "add", "--name", "x", "--cron", "0 9 * *", "--message", "m"], gateway.cliEnv);
    expect(badExpr.code).not.toBe(0);
    expect(badExpr.output).toMatch(/has 4 fields; write 5/);
    const badZone = await runCli(["cron", "add", "--name", "x", "--cron", "0 9 * * *", "--tz", "Europe/Atlantis", "--message", "m"], gateway.cliEnv);
    expect(badZone.output).toMatch(/unknown time zone "Europe\/Atlantis"/);
    const feb30 = await runCli(["automations", "add", "--name", "x", "--at", "2026-02-30T09:00", "--message", "m"], gateway.cliEnv);
    expect(feb30.output).toMatch(/month 2 of 2026 has 28 days/);
    const list = await runCli(["cron", "list", "--all", "--json"], gateway.cliEnv);
    expect(JSON.parse(list.output).jobs).toEqual([]);
  });

  for (const [tasks, reply, expected] of [
    ["- Nothing to check: reply HEARTBEAT_OK", "HEARTBEAT_OK", []],
    ["- remind me to stretch", "Time to stretch!", ["Time to stretch!"]],
  ] as const) {
    it(`a heartbeat with HEARTBEAT.md "${tasks}" sends ${expected.length === 0 ? "nothing" : "the reminder"} to the chat`, async () => {
      const clock = new ManualClock(Date.parse("2026-06-01T10:00:00Z"));
      const stateDir = makeTempDir("openclaw-heartbeat-e2e-");
      fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
      fs.writeFileSync(path.join(stateDir, "workspace", "HEARTBEAT.md"), `# Heartbeat\n${tasks}\n`);
      let sawTasks = false;
      servers.model.setResponder((req) => {
        sawTasks = systemPromptOf(req).includes(tasks);
        return { text: reply };
      });
      const chat = 200 + expected.length;
      const channels = {
        telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(chat)] }),
      };
      const agents = {
        defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" }, heartbeat: { every: "30m", target: "telegram", to: String(chat) } },
      };
      const gateway = servers.keep(await startInProcessGateway({ stateDir, config: fakeModelConfig(servers.model, stateDir, { channels, agents }), cronClock: clock }));
      await waitUntil(() => /channel account started/.test(gateway.log()), 15_000);
      const before = servers.telegram.messages(chat).length;
      clock.advance(30 * 60_000);
      await waitUntil(() => /"msg":"heartbeat"/.test(gateway.log()), 20_000, "the heartbeat to finish");
      const last = await runCli(["gateway", "call", "last-heartbeat"], gateway.cliEnv);
      expect(JSON.parse(last.output)).toMatchObject({ agentId: "main", status: expected.length === 0 ? "ok-token" : "sent" });
      expect(sawTasks).toBe(true);
      if (expected.length > 0) await servers.telegram.waitFor(() => servers.telegram.messages(chat).length > before, 10_000);
      expect(
        servers.telegram
          .messages(chat)
          .slice(before)
          .map((m) => String(m.text)),
      ).toEqual(expected);
      const health = JSON.parse((await runCli(["gateway", "call", "health"], gateway.cliEnv)).output);
      expect(health.agents[0].heartbeat).toMatchObject({ enabled: true, every: "30m", everyMs: 1_800_000, target: "telegram" });
      expect(health.heartbeatSeconds).toBe(1800);
    });
  }
});
