import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * OpenClaw's own CLI (2026.9.6 from npm) against this gateway: each test sends the request the
 * real CLI sent for one command (captured through a WebSocket proxy) and checks the fields that
 * CLI reads from the answer, where a missing or misshaped field made the command fail.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir("openclaw-cli-wire-");
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir) } });
  ({ sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] }));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

const job = (name: string) => ({
  name,
  schedule: { kind: "every", everyMs: 3_600_000 },
  sessionTarget: "isolated",
  wakeMode: "now",
  payload: { kind: "agentTurn", message: `run ${name}` },
});

describe("openclaw cron list", () => {
  it("answers one inventory page with snapshotRevision, total, offset, limit, hasMore and nextOffset", async () => {
    for (const name of ["alpha", "beta", "gamma"]) expect((await sock.request("cron.add", job(name))).ok).toBe(true);
    // The CLI's request for `openclaw cron list`.
    const first = await sock.request("cron.list", { includeDisabled: false, limit: 2, offset: 0 });
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    expect(first.payload).toMatchObject({ total: 3, offset: 0, limit: 2, hasMore: true, nextOffset: 2 });
    expect(first.payload.jobs).toHaveLength(2);
    expect(first.payload.snapshotRevision).toEqual(expect.any(String));
    expect(first.payload.snapshotRevision.length).toBeGreaterThan(0);

    const last = await sock.request("cron.list", { includeDisabled: false, limit: 2, offset: 2 });
    expect(last.payload).toMatchObject({ total: 3, offset: 2, limit: 2, hasMore: false, nextOffset: null, snapshotRevision: first.payload.snapshotRevision });
    expect(last.payload.jobs).toHaveLength(1);
  });

  it("changes snapshotRevision when the listed jobs change, so a CLI paging through restarts", async () => {
    const before = (await sock.request("cron.list", { includeDisabled: false, limit: 200, offset: 0 })).payload;
    expect((await sock.request("cron.add", job("delta"))).ok).toBe(true);
    const after = (await sock.request("cron.list", { includeDisabled: false, limit: 200, offset: 0 })).payload;
    expect(after.total).toBe(before.total + 1);
    expect(after.snapshotRevision).not.toBe(before.snapshotRevision);
  });

  it("an empty inventory is a valid page too", async () => {
    const page = (await sock.request("cron.list", { enabled: "disabled", limit: 200, offset: 0 })).payload;
    expect(page).toMatchObject({ jobs: [], total: 0, offset: 0, hasMore: false, nextOffset: null });
    expect(page.limit).toBeGreaterThanOrEqual(1);
    expect(page.snapshotRevision).toEqual(expect.any(String));
  });
});
