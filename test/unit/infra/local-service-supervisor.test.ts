import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalServiceSpec } from "../../../src/infra/local-services/local-service-spec.js";
import { LocalServiceSupervisor } from "../../../src/infra/local-services/local-service-supervisor.js";
import { isProcessAlive } from "../../../src/infra/process-alive.js";
import { acceptsConnections, closedPort } from "../../helpers/ports.js";
import { waitUntil } from "../../helpers/reliability.js";

/**
 * The supervisor with real server processes (test/fixtures/local-model-server/server.mjs): one
 * start shared by the requests that wait for it, reuse, idle stop, restart of a server that stops
 * answering, a whole process group stopped, and each failure named with the server's output.
 */

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/local-model-server/server.mjs");
const supervisors: LocalServiceSupervisor[] = [];

/** The default 2 s health-check limit: a shorter one could take a busy healthy server for a dead one on a loaded machine. */
function supervisor(): LocalServiceSupervisor {
  const made = new LocalServiceSupervisor({ probeIntervalMs: 50, stopGraceMs: 1_000 });
  supervisors.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stopAll()));
});

async function serverSpec(overrides: Partial<LocalServiceSpec> & { env?: Record<string, string> } = {}) {
  const port = await closedPort();
  const starts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "local-service-")), "starts");
  const spec: LocalServiceSpec = {
    label: "models.providers.local.localService",
    command: process.execPath,
    args: [SERVER, String(port)],
    env: { STARTS_FILE: starts, ...overrides.env },
    healthUrl: `http://127.0.0.1:${port}/v1/models`,
    readyTimeoutMs: 10_000,
    idleStopMs: 0,
    ...overrides,
    ...(overrides.env ? { env: { STARTS_FILE: starts, ...overrides.env } } : {}),
  };
  const startedPids = () => (fs.existsSync(starts) ? fs.readFileSync(starts, "utf8").trim().split("\n").map(Number) : []);
  return { spec, port, startedPids };
}

describe("LocalServiceSupervisor", () => {
  it("starts a server that does not answer, once for all the requests waiting, and reuses it after", async () => {
    const { spec, port, startedPids } = await serverSpec({ env: { READY_DELAY_MS: "300" } });
    const services = supervisor();
    const logged: string[] = [];
    services.setLog((_level, message) => logged.push(message));
    const leases = await Promise.all([services.lease(spec), services.lease(spec), services.lease(spec)]);
    expect(await acceptsConnections(port)).toBe(true);
    expect(startedPids()).toHaveLength(1);
    for (const lease of leases) lease.release();
    const again = await services.lease(spec);
    again.release();
    expect(startedPids()).toHaveLength(1);
    expect(services.running()).toEqual([{ label: spec.label, pid: startedPids()[0] }]);
    expect(logged.some((line) => line.startsWith(`${spec.label}: started ${process.execPath} (pid ${startedPids()[0]})`))).toBe(true);
    expect(logged.some((line) => /ready after \d+ ms/.test(line))).toBe(true);
  }, 20_000);

  it("uses a server that already answers and never stops it", async () => {
    const external = http.createServer((_req, res) => res.end("{}"));
    await new Promise<void>((resolve) => external.listen(0, "127.0.0.1", resolve));
    const port = (external.address() as AddressInfo).port;
    try {
      const services = supervisor();
      // The command does not exist: a start would fail the lease.
      const spec: LocalServiceSpec = { label: "svc", command: "/nonexistent/server", args: [], healthUrl: `http://127.0.0.1:${port}/`, readyTimeoutMs: 1_000, idleStopMs: 10 };
      const lease = await services.lease(spec);
      lease.release();
      await services.stopAll();
      expect(services.running()).toEqual([]);
      expect(await acceptsConnections(port)).toBe(true);
    } finally {
      await new Promise((resolve) => external.close(resolve));
    }
  });

  it("stops a server it started once idle for idleStopMs, and starts it again for the next request", async () => {
    const { spec, port, startedPids } = await serverSpec({ idleStopMs: 200 });
    const services = supervisor();
    const first = await services.lease(spec);
    const [pid] = startedPids();
    await new Promise((r) => setTimeout(r, 400));
    // Held: an idle stop never cuts a request short.
    expect(isProcessAlive(pid!)).toBe(true);
    first.release();
    await waitUntil(() => !isProcessAlive(pid!), 15_000, "the idle server exited");
    expect(await acceptsConnections(port)).toBe(false);
    const second = await services.lease(spec);
    second.release();
    expect(startedPids()).toHaveLength(2);
  }, 20_000);

  it("restarts a server of its own that stopped answering while no request held it", async () => {
    const { spec, startedPids } = await serverSpec();
    const services = supervisor();
    (await services.lease(spec)).release();
    const [frozen] = startedPids();
    process.kill(frozen!, "SIGSTOP");
    const logged: string[] = [];
    services.setLog((_level, message) => logged.push(message));
    (await services.lease(spec)).release();
    expect(startedPids()).toHaveLength(2);
    await waitUntil(() => !isProcessAlive(frozen!), 15_000, "the frozen server was killed");
    expect(logged.some((line) => line.includes(`the server (pid ${frozen}) no longer answers ${spec.healthUrl}; restarting it`))).toBe(true);
  }, 20_000);

  it("a server that exits before it is ready: the error names the service, the exit code and its output, with secrets masked", async () => {
    const { spec } = await serverSpec({ env: { EXIT_AT_START: "3", LOCAL_SECRET: "sk-local-very-secret" } });
    const services = supervisor();
    const failure = await services.lease(spec).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toContain(`models.providers.local.localService: ${process.execPath} exited with code 3 before it answered ${spec.healthUrl}`);
    expect(failure).toContain("fatal: no model weights found");
    expect(failure).toContain("loaded key [redacted]");
    expect(failure).not.toContain("sk-local-very-secret");
  }, 20_000);

  it("a server that never answers within readyTimeoutMs is stopped and the error says which setting to change", async () => {
    const { spec, startedPids } = await serverSpec({ readyTimeoutMs: 3_000, env: { READY_DELAY_MS: "60000" } });
    const services = supervisor();
    const failure = await services.lease(spec).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toContain(`did not answer ${spec.healthUrl} within 3000 ms (readyTimeoutMs); stopped it`);
    expect(failure).toContain("local server booting on");
    expect(failure).toContain("raise readyTimeoutMs");
    const [pid] = startedPids();
    expect(isProcessAlive(pid!)).toBe(false);
  }, 20_000);

  it("a command that cannot run: the error names it and what it must be", async () => {
    const services = supervisor();
    const spec: LocalServiceSpec = {
      label: "models.providers.x.localService",
      command: "/nonexistent/llama-server",
      args: [],
      healthUrl: `http://127.0.0.1:${await closedPort()}/v1/models`,
      readyTimeoutMs: 1_000,
      idleStopMs: 0,
    };
    await expect(services.lease(spec)).rejects.toThrow(/models\.providers\.x\.localService: could not start \/nonexistent\/llama-server: .*ENOENT.*absolute path/);
  });

  it("stopAll stops the whole process group: a wrapper script's server goes too", async () => {
    const { spec, port, startedPids } = await serverSpec();
    const wrapped: LocalServiceSpec = { ...spec, command: "/bin/sh", args: ["-c", `"${process.execPath}" "${SERVER}" ${port} & wait`] };
    const services = supervisor();
    (await services.lease(wrapped)).release();
    const [serverPid] = startedPids();
    expect(isProcessAlive(serverPid!)).toBe(true);
    await services.stopAll();
    await waitUntil(() => !isProcessAlive(serverPid!), 15_000, "the wrapped server exited");
    expect(await acceptsConnections(port)).toBe(false);
    expect(services.running()).toEqual([]);
  }, 20_000);

  it("a request that gives up while the server starts is refused at once; the start goes on for the next one", async () => {
    const { spec, startedPids } = await serverSpec({ env: { READY_DELAY_MS: "400" } });
    const services = supervisor();
    const controller = new AbortController();
    const abandoned = services.lease(spec, controller.signal);
    setTimeout(() => controller.abort(new Error("client left")), 50);
    await expect(abandoned).rejects.toThrow("client left");
    (await services.lease(spec)).release();
    expect(startedPids()).toHaveLength(1);
  }, 20_000);
});
