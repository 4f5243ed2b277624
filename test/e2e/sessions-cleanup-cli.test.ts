import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../src/sessions/store/index.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { readIndex } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `openclaw sessions cleanup` with the real CLI: against a running gateway (`sessions.cleanup`, on
 * the sessions it holds) and, with none, in the CLI's own process under the state-dir lock.
 * Sessions are seeded on disk with old `updatedAt` (the store's clock set back) before the
 * gateway starts, or created through it, so a pass has sessions to archive for their age or for
 * the cap; a dry run changes neither the files nor `sessions.list`, the real run archives.
 */

const servers = useFakeServers();
const HOUR = 3600_000;

/** Sessions on disk updated `hoursAgo` hours ago; returns their transcripts. */
function seed(stateDir: string, hoursAgo: number, ...keys: string[]): Record<string, string> {
  const store = new SessionStore(stateDir, { now: () => Date.now() - hoursAgo * HOUR });
  const files = Object.fromEntries(keys.map((key) => [key, store.ensure(key).sessionFile]));
  store.close();
  return files;
}

async function start(stateDir: string, extra: Record<string, unknown>): Promise<GatewayProcess> {
  const configFile = { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, extra) };
  return servers.keep(await startGateway({ stateDir, configFile }));
}

function cliIn(stateDir: string, gateway?: GatewayProcess) {
  const env = { OPENCLAW_STATE_DIR: stateDir, ...(gateway ? { OPENCLAW_GATEWAY_TOKEN: gateway.token, OPENCLAW_GATEWAY_PORT: String(gateway.port) } : {}) };
  return (...args: string[]) => runCli(["sessions", "cleanup", ...args], env, 60_000);
}

async function listed(gateway: GatewayProcess): Promise<string[]> {
  const { sock } = await openOperator(gateway.url, gateway.token);
  try {
    const { payload } = await sock.request("sessions.list", { limit: 1000 });
    return payload.sessions.map((s: { key: string }) => s.key).sort();
  } finally {
    sock.close();
  }
}

/** Every file of the agent's sessions folder with its size and mtime: a dry run leaves all of them as they were. */
function folder(stateDir: string, agentId = "main"): Record<string, string> {
  const dir = path.join(stateDir, "agents", agentId, "sessions");
  return Object.fromEntries(
    fs.readdirSync(dir).map((name) => {
      const stat = fs.statSync(path.join(dir, name));
      return [name, `${stat.size}@${stat.mtimeMs}`];
    }),
  );
}

const deletedArchivesOf = (transcript: string) => fs.readdirSync(path.dirname(transcript)).filter((name) => name.startsWith(`${path.basename(transcript)}.deleted.`));
const actionsOf = (summary: { sessions: { key: string; action: string; reason?: string }[] }) =>
  Object.fromEntries(summary.sessions.map((s) => [s.key, s.reason ? `${s.action}:${s.reason}` : s.action]));

describe("openclaw sessions cleanup through the gateway", { timeout: 120_000 }, () => {
  it("over maxEntries: --dry-run lists what would go and changes nothing, --active-key protects one, the real run archives", async () => {
    const stateDir = makeTempDir("openclaw-cleanup-cap-");
    const seeded = seed(stateDir, 4, "agent:main:four-hours");
    Object.assign(seeded, seed(stateDir, 3, "agent:main:three-hours"), seed(stateDir, 2, "agent:main:two-hours"));
    const gateway = await start(stateDir, { session: { maintenance: { maxEntries: 3 } } });
    // Two more sessions made through the gateway: 5 sessions, 2 over the cap (the oldest unprotected ones).
    const { sock } = await openOperator(gateway.url, gateway.token, { scopes: ["operator.admin"] });
    for (const key of ["live-1", "live-2"]) expect((await sock.request("sessions.create", { key })).ok).toBe(true);
    sock.close();
    await expect.poll(() => Object.keys(readIndex(stateDir)).length, { timeout: 10_000 }).toBe(5);
    const cleanup = cliIn(stateDir, gateway);
    const before = { files: folder(stateDir), listed: await listed(gateway) };
    expect(before.listed).toEqual(["agent:main:four-hours", "agent:main:live-1", "agent:main:live-2", "agent:main:three-hours", "agent:main:two-hours"]);

    const text = await cleanup("--dry-run");
    expect(text.code, text.output).toBe(0);
    expect(text.output).not.toContain("No gateway is running");
    expect(text.output).toContain(`Session store: ${path.join(stateDir, "agents", "main", "sessions", "sessions.json")}\n`);
    expect(text.output).toContain("Maintenance mode: enforce (dry run)\nEntries: 5 -> 3\nWould archive for age (pruneAfter): 0\nWould archive over the cap (maxEntries): 2\n");
    expect(text.output).toMatch(
      /^ACTION +KEY +AGE +KEPT BECAUSE\narchive-cap +agent:main:four-hours +4h \d+m\narchive-cap +agent:main:three-hours +3h \d+m\nkeep +agent:main:two-hours/m,
    );
    expect(text.output).toMatch(/\nDry run: nothing was changed\.\n$/);

    const json = await cleanup("--dry-run", "--json");
    expect(json.code, json.output).toBe(0);
    const preview = JSON.parse(json.output);
    expect(preview).toMatchObject({
      agentId: "main",
      storePath: path.join(stateDir, "agents", "main", "sessions", "sessions.json"),
      mode: "enforce",
      dryRun: true,
      applied: false,
      beforeCount: 5,
      afterCount: 3,
      archived: 0,
      capArchived: 2,
      cronRunArchives: { removedFiles: 0, freedBytes: 0 },
      expiredArchives: { removedFiles: 0, freedBytes: 0 },
      diskBudget: { maxBytes: 10 * 1024 ** 3, highWaterBytes: 8 * 1024 ** 3, overBudget: false, removedFiles: 0 },
      wouldMutate: true,
      removedArchives: [],
    });
    expect(preview).not.toHaveProperty("appliedCount");
    expect(actionsOf(preview)).toEqual({
      "agent:main:four-hours": "archive-cap",
      "agent:main:three-hours": "archive-cap",
      "agent:main:two-hours": "keep:within-limits",
      "agent:main:live-1": "keep:within-limits",
      "agent:main:live-2": "keep:within-limits",
    });

    const protectedPreview = JSON.parse((await cleanup("--dry-run", "--json", "--active-key", "four-hours")).output);
    expect(protectedPreview.activeKey).toBe("agent:main:four-hours");
    expect(actionsOf(protectedPreview)).toMatchObject({
      "agent:main:four-hours": "keep:active-key",
      "agent:main:three-hours": "archive-cap",
      "agent:main:two-hours": "archive-cap",
    });
    expect(folder(stateDir)).toEqual(before.files);
    expect(await listed(gateway)).toEqual(before.listed);

    const real = await cleanup("--active-key", "agent:main:four-hours");
    expect(real.code, real.output).toBe(0);
    expect(real.output).toContain("Archived over the cap (maxEntries): 2\n");
    expect(real.output).toMatch(/Archived sessions:\nACTION +KEY +AGE\narchive-cap +agent:main:three-hours +3h \d+m\narchive-cap +agent:main:two-hours +2h \d+m\n/);
    expect(real.output).toMatch(/\nApplied maintenance\. Current entries: 3\n$/);
    expect(await listed(gateway)).toEqual(["agent:main:four-hours", "agent:main:live-1", "agent:main:live-2"]);
    for (const key of ["agent:main:three-hours", "agent:main:two-hours"]) {
      expect(fs.existsSync(seeded[key]!)).toBe(false);
      expect(deletedArchivesOf(seeded[key]!)).toHaveLength(1);
    }
    expect(fs.existsSync(seeded["agent:main:four-hours"]!)).toBe(true);
    expect(Object.keys(readIndex(stateDir)).sort()).toEqual(["agent:main:four-hours", "agent:main:live-1", "agent:main:live-2"]);

    const again = JSON.parse((await cleanup("--json")).output);
    expect(again).toMatchObject({ dryRun: false, applied: true, beforeCount: 3, afterCount: 3, appliedCount: 3, capArchived: 0, wouldMutate: false });
  });

  it("mode warn: a run without --enforce changes nothing and says so; --enforce archives", async () => {
    const stateDir = makeTempDir("openclaw-cleanup-warn-");
    const stale = seed(stateDir, 40 * 24, "agent:main:stale-1", "agent:main:stale-2");
    seed(stateDir, 1, "agent:main:fresh");
    const gateway = await start(stateDir, { session: { maintenance: { mode: "warn" } } });
    await gateway.waitForOutput(/sessions due for archiving kept/, 10_000);
    const cleanup = cliIn(stateDir, gateway);
    const before = { files: folder(stateDir), listed: await listed(gateway) };

    const text = await cleanup();
    expect(text.code, text.output).toBe(0);
    expect(text.output).toContain("Maintenance mode: warn\nEntries: 3 -> 1\nWould archive for age (pruneAfter): 2\n");
    expect(text.output).toMatch(/archive-age +agent:main:stale-1 +40d \d+h\n/);
    expect(text.output).toMatch(/\nsession\.maintenance\.mode is warn: nothing was archived or removed\. Pass --enforce to apply the above\.\n$/);
    const json = JSON.parse((await cleanup("--json")).output);
    expect(json).toMatchObject({ mode: "warn", dryRun: false, applied: false, beforeCount: 3, afterCount: 1, archived: 2, wouldMutate: true });
    expect(json).not.toHaveProperty("appliedCount");
    expect(folder(stateDir)).toEqual(before.files);
    expect(await listed(gateway)).toEqual(before.listed);

    const { sock: watcher } = await openOperator(gateway.url, gateway.token);
    expect((await watcher.request("sessions.subscribe", {})).ok).toBe(true);
    const enforced = await cleanup("--enforce", "--json");
    expect(enforced.code, enforced.output).toBe(0);
    // Subscribers hear each archived session go, as after sessions.delete.
    for (const key of Object.keys(stale)) {
      await watcher.waitFor((f) => f.type === "event" && f.event === "sessions.changed" && f.payload.key === key && f.payload.reason === "delete");
    }
    watcher.close();
    expect(JSON.parse(enforced.output)).toMatchObject({ mode: "enforce", dryRun: false, applied: true, beforeCount: 3, afterCount: 1, appliedCount: 1, archived: 2 });
    expect(await listed(gateway)).toEqual(["agent:main:fresh"]);
    for (const file of Object.values(stale)) expect(deletedArchivesOf(file)).toHaveLength(1);
  });

  it("--agent and --all-agents choose the agents; an unknown agent, an active key of another agent and OpenClaw's unsupported options are refused", async () => {
    const stateDir = makeTempDir("openclaw-cleanup-agents-");
    seed(stateDir, 40 * 24, "agent:main:old", "agent:work:old");
    const gateway = await start(stateDir, {
      agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } }, entries: { main: {}, work: {} } },
      session: { maintenance: { mode: "warn" } },
    });
    const cleanup = cliIn(stateDir, gateway);
    const before = { files: folder(stateDir), work: folder(stateDir, "work"), listed: await listed(gateway) };

    const all = await cleanup("--all-agents", "--dry-run", "--json");
    expect(all.code, all.output).toBe(0);
    const result = JSON.parse(all.output);
    expect(result).toMatchObject({ allAgents: true, mode: "warn", dryRun: true });
    expect(result.stores.map((s: { agentId: string; archived: number }) => [s.agentId, s.archived])).toEqual([
      ["main", 1],
      ["work", 1],
    ]);
    const text = await cleanup("--all-agents", "--dry-run");
    expect(text.output).toMatch(/^Agent: main\nSession store: .*\n[\s\S]*\n\nAgent: work\nSession store: /);

    const work = JSON.parse((await cleanup("--agent", "work", "--dry-run", "--json")).output);
    expect(work).toMatchObject({ agentId: "work", archived: 1 });
    expect(Object.keys(actionsOf(work))).toEqual(["agent:work:old"]);
    // Without --agent, the default agent's sessions only.
    expect(Object.keys(actionsOf(JSON.parse((await cleanup("--dry-run", "--json")).output)))).toEqual(["agent:main:old"]);

    const unknown = await cleanup("--agent", "nobody");
    expect(unknown.code).toBe(1);
    expect(unknown.output).toBe('openclaw: unknown agent "nobody"; known agents: main, work [INVALID_REQUEST]\n');
    const outside = await cleanup("--enforce", "--active-key", "agent:work:old");
    expect(outside.code).toBe(1);
    expect(outside.output).toBe('openclaw: the active key agent:work:old is a session of agent "work", which this cleanup does not cover (it covers main) [INVALID_REQUEST]\n');
    const both = await cleanup("--agent", "work", "--all-agents");
    expect(both.code).toBe(1);
    expect(both.output).toBe("openclaw: --agent and --all-agents cannot be used together\n");

    for (const [flags, message] of [
      [["--fix-dm-scope"], "--fix-dm-scope is not supported: sessions an earlier session.dmScope left are archived by pruneAfter like any idle session"],
      [["--store", "./sessions.json"], "--store is not supported: an agent's sessions are always <state dir>/agents/<id>/sessions here"],
      [["--fix-missing"], "--fix-missing is not supported: a session whose transcript is missing gets a fresh one when the store opens"],
    ] as const) {
      const refused = await cleanup("--enforce", ...flags);
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toContain(`openclaw: ${message}`);
    }
    const refusedJson = await cleanup("--enforce", "--fix-dm-scope", "--json");
    expect(refusedJson.code).toBe(1);
    expect(JSON.parse(refusedJson.output)).toEqual({ ok: false, error: { type: "cli_error", message: expect.stringMatching(/^--fix-dm-scope is not supported: /) } });

    // sessions.cleanup needs operator.admin.
    const { sock } = await openOperator(gateway.url, gateway.token, { scopes: ["operator.write"] });
    expect((await sock.request("sessions.cleanup", { dryRun: true })).error).toMatchObject({ code: "FORBIDDEN", message: "missing scope: operator.admin" });
    sock.close();
    expect({ files: folder(stateDir), work: folder(stateDir, "work"), listed: await listed(gateway) }).toEqual(before);

    // The request OpenClaw's CLI sends for `sessions cleanup --agent work --enforce` (its names: `agent`, and its repairs as false), and the fields it prints.
    const { sock: admin } = await openOperator(gateway.url, gateway.token, { scopes: ["operator.admin"] });
    const openclaw = await admin.request("sessions.cleanup", { agent: "work", allAgents: false, enforce: true, fixMissing: false, fixDmScope: false });
    expect(openclaw.payload).toMatchObject({ agentId: "work", storePath: path.join(stateDir, "agents", "work", "sessions", "sessions.json"), appliedCount: 0, archived: 1 });
    const repair = await admin.request("sessions.cleanup", { enforce: true, fixDmScope: true });
    expect(repair.error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringMatching(/^not supported: fixDmScope /) });
    admin.close();
    expect(await listed(gateway)).toEqual(["agent:main:old"]);
  });
});

describe("openclaw sessions cleanup without a gateway", { timeout: 60_000 }, () => {
  it("runs in the CLI's process under the state-dir lock, and refuses while another process holds that lock", async () => {
    const stateDir = makeTempDir("openclaw-cleanup-local-");
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), fakeModelConfig(servers.model, stateDir, { session: { maintenance: { pruneAfter: "7d" } } }));
    const stale = seed(stateDir, 10 * 24, "agent:main:stale");
    seed(stateDir, 1, "agent:main:fresh");
    const cleanup = cliIn(stateDir);
    const lockDir = path.join(stateDir, "gateway.lock.d");
    const before = folder(stateDir);

    const preview = await cleanup("--dry-run");
    expect(preview.code, preview.output).toBe(0);
    expect(preview.output).toMatch(new RegExp(`^No gateway is running for ${stateDir}: ran the cleanup in this process\\.\n`));
    expect(preview.output).toMatch(/archive-age +agent:main:stale +10d \d+h\n/);
    expect(folder(stateDir)).toEqual(before);
    expect(fs.existsSync(lockDir)).toBe(false);

    // A lock held by a process that is no gateway this command can reach: refused, nothing touched.
    fs.mkdirSync(lockDir);
    const refused = await cleanup("--json");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.output).error.message).toMatch(
      new RegExp(`^the state dir ${stateDir} is locked \\(${lockDir}\\) by a process that does not say who it is, but no gateway answers for it: `),
    );
    expect(folder(stateDir)).toEqual(before);
    fs.rmdirSync(lockDir);

    const real = await cleanup("--json");
    expect(real.code, real.output).toBe(0);
    expect(JSON.parse(real.output)).toMatchObject({ applied: true, archived: 1, appliedCount: 1 });
    expect(Object.keys(readIndex(stateDir))).toEqual(["agent:main:fresh"]);
    expect(deletedArchivesOf(stale["agent:main:stale"]!)).toHaveLength(1);
    expect(fs.existsSync(lockDir)).toBe(false);
  });
});
