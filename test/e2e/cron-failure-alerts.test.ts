import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";
import { startInProcessGateway, type InProcessGateway } from "../helpers/in-process-gateway.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * A job that fails twice in a row is reported in a chat, once: the chat it announces to, or
 * `cron.failureAlert`'s chat for a job with none of its own. Real CLI, real gateway, a fake
 * model that refuses every request, and a fake Telegram server.
 */

const JOB_CHAT = 301;
const OPS_CHAT = 302;
const servers = useFakeServers({ telegram: true });

const textsIn = (chatId: number) => servers.telegram.messages(chatId).map((m) => String(m.text));

/** Runs the job now and waits until its run row is recorded (`rows` in all): a running job is not started twice. */
async function failOnce(gw: InProcessGateway, jobId: string, rows: number): Promise<void> {
  const ran = await runCli(["cron", "run", jobId], gw.cliEnv);
  expect(ran.code, ran.output).toBe(0);
  for (const deadline = Date.now() + 20_000; ; ) {
    const runs = JSON.parse((await runCli(["cron", "runs", jobId, "--json"], gw.cliEnv)).output).entries;
    if (runs.length >= rows) return;
    if (Date.now() > deadline) throw new Error(`run ${rows} of ${jobId} was not recorded`);
  }
}

describe("cron failure alerts in chats", { timeout: 180_000 }, () => {
  it("after 2 failures in a row the job's chat (or cron.failureAlert's) is told once; a third failure within the hour adds nothing", async () => {
    servers.model.setResponder(() => ({ status: 400, body: { error: { message: "model refuses everything", type: "invalid_request_error" } } }));
    const stateDir = makeTempDir("openclaw-cron-alerts-");
    const channels = {
      telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(JOB_CHAT)] }),
    };
    const cron = { failureAlert: { channel: "telegram", to: String(OPS_CHAT) } };
    const gw = servers.keep(
      await startInProcessGateway({
        stateDir,
        config: fakeModelConfig(servers.model, stateDir, { channels, cron }),
        cronClock: new ManualClock(Date.parse("2026-06-01T06:00:00Z")),
      }),
    );
    await waitUntil(() => /channel account started/.test(gw.log()), 15_000);

    const add = async (args: string[]) => {
      const added = await runCli(["cron", "add", "--every", "1d", "--message", "Write the report", "--json", ...args], gw.cliEnv);
      expect(added.code, added.output).toBe(0);
      return JSON.parse(added.output).job as { id: string };
    };
    const announcing = await add(["--name", "daily report", "--channel", "telegram", "--to", String(JOB_CHAT)]);
    const quiet = await add(["--name", "quiet check", "--no-deliver"]);

    await failOnce(gw, announcing.id, 1);
    expect(textsIn(JOB_CHAT)).toEqual([]);
    await failOnce(gw, announcing.id, 2);
    await servers.telegram.waitFor(() => textsIn(JOB_CHAT).length === 1, 20_000);
    expect(textsIn(JOB_CHAT)[0]).toMatch(/^⚠️ Scheduled job "daily report" failed 2 times in a row\. Last error: .*model refuses everything/);
    expect(textsIn(JOB_CHAT)[0]).toContain(`openclaw cron runs ${announcing.id}`);

    await failOnce(gw, quiet.id, 1);
    await failOnce(gw, quiet.id, 2);
    await servers.telegram.waitFor(() => textsIn(OPS_CHAT).length === 1, 20_000);
    expect(textsIn(OPS_CHAT)[0]).toMatch(/"quiet check" failed 2 times in a row/);

    // A third failure within the hour: no second alert, and the job's owed alert is settled.
    await failOnce(gw, announcing.id, 3);
    const job = JSON.parse((await runCli(["cron", "list", "--all", "--json"], gw.cliEnv)).output).jobs.find((j: { id: string }) => j.id === announcing.id);
    expect(job.state).toMatchObject({ consecutiveErrors: 3 });
    expect(job.state.pendingAlertRunId).toBeUndefined();
    expect(textsIn(JOB_CHAT)).toHaveLength(1);
    expect(textsIn(OPS_CHAT)).toHaveLength(1);
  });

  it("a failureAlert channel without a chat is refused at load", async () => {
    const stateDir = makeTempDir("openclaw-cron-alerts-");
    const { validateConfig } = await import("../../src/config/validate.js");
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir, { cron: { failureAlert: { channel: "telegram" } } }));
    expect(() => validateConfig(config)).toThrow(/cron\.failureAlert\.to/);
  });
});
