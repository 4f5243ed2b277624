import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { askAndWait } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { readIndex } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/** `session.maintenance` through the real gateway: what a start-up's pass keeps, archives or only reports. */

const servers = useFakeServers();

describe("session.maintenance", { timeout: 60_000 }, () => {
  it("maxEntries archives the least recently updated sessions at start-up; mode warn only logs them", async () => {
    const stateDir = makeTempDir("openclaw-maintenance-");
    servers.model.setResponder(() => ({ text: "noted" }));
    const start = (maintenance: Record<string, unknown>) =>
      startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { session: { maintenance } }) } });
    const send = async (gateway: GatewayProcess, sessionKey: string) => {
      const { sock } = await openOperator(gateway.url, gateway.token);
      await askAndWait(sock, sessionKey, "hello");
      sock.close();
    };
    const kept = () => Object.keys(readIndex(stateDir)).sort();

    let gateway = servers.keep(await start({}));
    for (const name of ["first", "second", "third"]) await send(gateway, name);
    await gateway.stop();
    expect(kept()).toEqual(["agent:main:first", "agent:main:second", "agent:main:third"]);

    gateway = servers.keep(await start({ mode: "warn", maxEntries: 1 }));
    await gateway.waitForOutput(/sessions due for archiving kept/, 10_000);
    await gateway.stop();
    expect(kept()).toHaveLength(3);

    gateway = servers.keep(await start({ maxEntries: 1 }));
    await gateway.stop();
    expect(kept()).toEqual(["agent:main:third"]);
  });

  it("cron.sessionRetention removes the transcripts of a job's earlier isolated runs once older than it; false keeps them, and other sessions' archives stay", async () => {
    const stateDir = makeTempDir("openclaw-cron-retention-");
    servers.model.setResponder(() => ({ text: "done" }));
    const start = (cron: Record<string, unknown>) =>
      startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { cron }) } }).then((gw) => servers.keep(gw));
    const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
    const archives = () => fs.readdirSync(sessionsDir).filter((name) => /\.jsonl\.reset\./.test(name));
    const headerKey = (name: string) => JSON.parse(fs.readFileSync(path.join(sessionsDir, name), "utf8").split("\n")[0]!).sessionKey;

    let gateway = await start({ sessionRetention: false });
    const { sock } = await openOperator(gateway.url, gateway.token, { scopes: ["operator.admin"] });
    const job = {
      name: "twice",
      schedule: { kind: "every", everyMs: 3_600_000 },
      sessionTarget: "isolated",
      wakeMode: "now",
      payload: { kind: "agentTurn", message: "check" },
      delivery: { mode: "none" },
    };
    const added = await sock.request("cron.add", job);
    expect(added.ok, JSON.stringify(added.error)).toBe(true);
    const id = added.payload.id as string;
    for (let run = 1; run <= 2; run++) {
      expect((await sock.request("cron.run", { id, mode: "force" })).payload).toMatchObject({ ok: true, ran: true });
      await expect.poll(async () => (await sock.request("cron.runs", { id })).payload.entries.length, { timeout: 15_000 }).toBe(run);
    }
    await askAndWait(sock, "main", "hello");
    expect((await sock.request("chat.send", { sessionKey: "main", message: "/new", idempotencyKey: "reset-main" })).payload).toMatchObject({ reset: true });
    sock.close();
    await gateway.stop();
    // The second run started the job's session over (its first run's transcript archived), as /new did the main session's.
    expect(archives().map(headerKey).sort()).toEqual([`agent:main:cron:${id}`, "agent:main:main"]);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    gateway = await start({ sessionRetention: false });
    await gateway.stop();
    expect(archives()).toHaveLength(2);

    gateway = await start({ sessionRetention: "1s" });
    await gateway.stop();
    expect(archives().map(headerKey)).toEqual(["agent:main:main"]);
  });
  it("maxDiskBytes: a start-up pass removes the oldest archives of a folder over its budget and logs it; the live transcript stays", async () => {
    const stateDir = makeTempDir("openclaw-disk-budget-");
    servers.model.setResponder(() => ({ text: "noted" }));
    const start = (maintenance: Record<string, unknown>) =>
      startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { session: { maintenance } }) } });
    let gateway = servers.keep(await start({}));
    const { sock } = await openOperator(gateway.url, gateway.token);
    await askAndWait(sock, "main", "hello");
    sock.close();
    await gateway.stop();
    const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
    const old = path.join(sessionsDir, "gone.jsonl.reset.2026-01-01T00-00-00.000Z");
    const newer = path.join(sessionsDir, "kept.jsonl.reset.2026-02-01T00-00-00.000Z");
    fs.writeFileSync(old, "x".repeat(64 * 1024));
    fs.writeFileSync(newer, "x".repeat(64 * 1024));

    gateway = servers.keep(await start({ maxDiskBytes: "100kb", highWaterBytes: "90kb" }));
    await gateway.waitForOutput(/removed the 1 oldest archives \(session\.maintenance\.maxDiskBytes\)/, 10_000);
    await gateway.stop();
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(newer)).toBe(true);
    expect(Object.keys(readIndex(stateDir))).toEqual(["agent:main:main"]);
  });
});
