import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, waitUntil } from "../helpers/reliability.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * System events acknowledged for the next heartbeat survive a SIGKILL before that beat: the
 * `/hooks/wake` answer, a `wake` call and a cron `--wake next-heartbeat` run are each carried by
 * the first beat after the restart, once. Real gateway processes on one state directory; the
 * heartbeat (every 30 min) is never due during the test, a `wake now` after the restart beats.
 */

const HOOK_TOKEN = "wake-hook-secret-0123";
const BEAT = "System events since the last heartbeat";
const servers = useFakeServers();

async function start(stateDir: string, every = "30m"): Promise<GatewayProcess> {
  const config = JSON.parse(fakeModelConfig(servers.model, stateDir, { hooks: { enabled: true, token: HOOK_TOKEN } }));
  config.agents.defaults = { ...config.agents.defaults, heartbeat: { every, target: "none" } };
  const gw = await startGateway({ stateDir, token: "wake-restart-token", configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  return servers.keep(gw);
}

const cli = (gw: GatewayProcess, args: string[]) => runCli(args, { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) });

function postWake(gw: GatewayProcess, body: object, idempotencyKey: string) {
  return fetch(`${gw.httpUrl}/hooks/wake`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${HOOK_TOKEN}`, "idempotency-key": idempotencyKey },
    body: JSON.stringify(body),
  });
}

async function wake(gw: GatewayProcess, mode: "now" | "next-heartbeat", text: string): Promise<void> {
  const called = await cli(gw, ["gateway", "call", "wake", "--params", JSON.stringify({ mode, text })]);
  expect(called.code, called.output).toBe(0);
}

/** Wakes the heartbeat now and returns the message of the beat that ran. */
async function beatNow(gw: GatewayProcess, text: string): Promise<string> {
  const before = chatRequests(servers.model).length;
  const beat = () =>
    chatRequests(servers.model)
      .slice(before)
      .find((r) => lastUserText(r).includes(text));
  await wake(gw, "now", text);
  await waitUntil(() => beat() !== undefined, 30_000, "the heartbeat's model call");
  return lastUserText(beat()!);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("system events across a SIGKILL", { timeout: 120_000 }, () => {
  it("a /hooks/wake and a wake call answered before the kill reach the first beat after the restart, and a replayed key adds nothing", async () => {
    const stateDir = makeTempDir("openclaw-wake-kill-");
    servers.model.setResponder(() => ({ text: "HEARTBEAT_OK" }));
    let gw = await start(stateDir);
    const first = await postWake(gw, { text: "deploy 42 finished", mode: "next-heartbeat" }, "deploy-42");
    expect(first.status).toBe(200);
    await wake(gw, "next-heartbeat", "backup done");
    await servers.kill(gw);
    gw = await start(stateDir);
    const replay = await postWake(gw, { text: "deploy 42 finished", mode: "next-heartbeat" }, "deploy-42");
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replay")).toBe("true");
    const message = await beatNow(gw, "poke after restart");
    expect(message).toContain(BEAT);
    expect(occurrences(message, "deploy 42 finished")).toBe(1);
    expect(occurrences(message, "backup done")).toBe(1);
    // Carried once: the next beat lists only its own event.
    const next = await beatNow(gw, "second poke");
    expect(next).not.toContain("deploy 42 finished");
    expect(next).not.toContain("backup done");
  });

  it("a cron --wake next-heartbeat run recorded ok before the kill has its event in the first beat after the restart", async () => {
    const stateDir = makeTempDir("openclaw-cron-wake-kill-");
    servers.model.setResponder(() => ({ text: "HEARTBEAT_OK" }));
    let gw = await start(stateDir);
    const added = await cli(gw, ["cron", "add", "--name", "reminder", "--every", "1d", "--system-event", "water the plants", "--wake", "next-heartbeat", "--json"]);
    expect(added.code, added.output).toBe(0);
    const jobId = JSON.parse(added.output).job.id as string;
    expect(JSON.parse((await cli(gw, ["cron", "run", jobId, "--json"])).output)).toMatchObject({ ran: true });
    let runs: { status: string }[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && runs.length === 0; ) {
      runs = JSON.parse((await cli(gw, ["cron", "runs", jobId, "--json"])).output).entries;
    }
    expect(runs).toEqual([expect.objectContaining({ status: "ok" })]);
    expect(chatRequests(servers.model)).toHaveLength(0);
    await servers.kill(gw);
    gw = await start(stateDir);
    const message = await beatNow(gw, "poke after restart");
    expect(occurrences(message, "[Scheduled: reminder] water the plants")).toBe(1);
    const next = await beatNow(gw, "second poke");
    expect(next).not.toContain("water the plants");
  });

  it("events queued for the next beat reach one beat at the restart when the heartbeat is off by then", async () => {
    const stateDir = makeTempDir("openclaw-wake-off-");
    servers.model.setResponder(() => ({ text: "HEARTBEAT_OK" }));
    const gw = await start(stateDir);
    await wake(gw, "next-heartbeat", "backup done");
    await servers.kill(gw);
    await start(stateDir, "0m");
    const beat = () => chatRequests(servers.model).find((r) => lastUserText(r).includes("backup done"));
    await waitUntil(() => beat() !== undefined, 30_000, "the beat that carries the queued event");
    expect(lastUserText(beat()!)).toContain(BEAT);
    expect(chatRequests(servers.model)).toHaveLength(1);
  });
});
