import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";

/**
 * `openclaw cron enable|disable|get|show` against a real gateway: the job's `enabled` flips as
 * `cron list` shows it, `get` prints the job as JSON, `show` finds a job by id or exact name and
 * prints it readable, and an unknown id or name fails naming it.
 */

let gw: GatewayProcess;
beforeAll(async () => {
  gw = await startGateway({ configFile: { name: "openclaw.yaml", content: "gateway:\n  mode: local\n" } });
});
afterAll(async () => {
  await gw?.stop();
});

const env = () => ({ OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) });

async function cli(args: string[]) {
  return runCli(args, env());
}

async function addJob(name: string): Promise<string> {
  const added = await cli(["cron", "add", "--name", name, "--every", "1d", "--system-event", `${name} is due`, "--json"]);
  expect(added.code, added.output).toBe(0);
  return JSON.parse(added.output).job.id;
}

async function listed(all: boolean): Promise<Array<{ id: string; enabled: boolean }>> {
  const list = await cli(["cron", "list", "--json", ...(all ? ["--all"] : [])]);
  expect(list.code, list.output).toBe(0);
  return JSON.parse(list.output).jobs;
}

describe("openclaw cron enable / disable", () => {
  it("flips the job's enabled flag, as cron list shows it", async () => {
    const id = await addJob("stretch");

    const disabled = await cli(["cron", "disable", id]);
    expect(disabled.code, disabled.output).toBe(0);
    expect(disabled.output).toBe(`Disabled ${id} (stretch); cron list shows it with --all, cron enable ${id} turns it back on\n`);
    expect((await listed(false)).map((j) => j.id)).not.toContain(id);
    expect((await listed(true)).find((j) => j.id === id)).toMatchObject({ enabled: false });

    const enabled = await cli(["cron", "enable", id, "--json"]);
    expect(enabled.code, enabled.output).toBe(0);
    const job = JSON.parse(enabled.output);
    expect(job).toMatchObject({ id, name: "stretch", enabled: true });
    expect(typeof job.state.nextRunAtMs).toBe("number");
    expect((await listed(false)).find((j) => j.id === id)).toMatchObject({ enabled: true });

    const text = await cli(["cron", "enable", id]);
    expect(text.output).toMatch(new RegExp(`^Enabled ${id} \\(stretch\\), next run \\d{4}-\\d\\d-\\d\\dT`));
  });
});

describe("openclaw cron get / show", () => {
  it("get prints the job as JSON, with or without --json", async () => {
    const id = await addJob("water");
    for (const args of [
      ["cron", "get", id],
      ["cron", "get", id, "--json"],
    ]) {
      const got = await cli(args);
      expect(got.code, got.output).toBe(0);
      expect(JSON.parse(got.output)).toMatchObject({
        id,
        name: "water",
        enabled: true,
        schedule: { kind: "every", everyMs: 86_400_000 },
        payload: { kind: "systemEvent", text: "water is due" },
      });
    }
  });

  it("show finds the job by id or by exact name (any case) and prints it readable", async () => {
    const id = await addJob("Daily report");
    const byId = await cli(["cron", "show", id]);
    expect(byId.code, byId.output).toBe(0);
    const lines = byId.output.split("\n");
    expect(lines.slice(0, 8)).toEqual([
      `id: ${id}`,
      "name: Daily report",
      "description: -",
      "enabled: yes",
      "schedule: every 86400s",
      "session: main",
      "agent: main (default)",
      "model: -",
    ]);
    expect(byId.output).toContain("payload: system event: Daily report is due\n");
    expect(byId.output).toMatch(/^delivery: .+$/m);
    expect(byId.output).toMatch(/^next: in \d+h \d+m$/m);
    expect(byId.output).toContain("last: -\nstatus: idle\nlast error: -\n");

    const byName = await cli(["cron", "show", "daily REPORT"]);
    expect(byName.output).toBe(byId.output.replace(/^next: .*$/m, byName.output.match(/^next: .*$/m)![0]));

    await cli(["cron", "disable", id]);
    const json = await cli(["cron", "show", "Daily report", "--json"]);
    expect(json.code, json.output).toBe(0);
    expect(JSON.parse(json.output)).toMatchObject({
      id,
      name: "Daily report",
      enabled: false,
      status: "disabled",
      effectiveAgentId: "main",
      deliveryPreview: { label: expect.any(String) },
    });
  });

  it("show refuses a name two jobs share, naming their ids", async () => {
    const first = await addJob("twin");
    const second = await addJob("Twin");
    const shown = await cli(["cron", "show", "twin"]);
    expect(shown.code).toBe(1);
    expect(shown.output).toContain(`openclaw: 2 cron jobs are named "twin" (`);
    expect(shown.output).toContain(first);
    expect(shown.output).toContain(second);
    expect(shown.output).toContain("): give the id");
  });
});

describe("unknown cron job ids", () => {
  it("enable, disable, get and show fail naming the id, exit 1, text and JSON", async () => {
    for (const command of ["enable", "disable", "get"]) {
      const text = await cli(["cron", command, "nope"]);
      expect(text.code, `${command}: ${text.output}`).toBe(1);
      expect(text.output).toBe("openclaw: no cron job nope (openclaw cron list --all shows the ids)\n");
      const json = await cli(["cron", command, "nope", "--json"]);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.output)).toEqual({ ok: false, error: { type: "cli_error", message: "no cron job nope (openclaw cron list --all shows the ids)" } });
    }
    const shown = await cli(["cron", "show", "nope"]);
    expect(shown.code).toBe(1);
    expect(shown.output).toBe("openclaw: no cron job with id or name nope (openclaw cron list --all shows them)\n");
  });
});
