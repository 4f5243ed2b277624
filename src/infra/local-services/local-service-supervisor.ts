import { sleep } from "../sleep.js";
import { probeHealth } from "./health-probe.js";
import { localServiceKey, type LocalServiceSpec } from "./local-service-spec.js";
import { describeExit, ServiceProcess } from "./service-process.js";

export interface LocalServiceLease {
  /** The request is over; the last release of an idle service starts its idle-stop timer. Safe to call twice. */
  release(): void;
}

export type LocalServiceLog = (level: "info" | "warn", message: string) => void;

export interface SupervisorTimings {
  /** One health GET's limit. */
  probeTimeoutMs: number;
  /** The pause between health GETs while a started server gets ready. */
  probeIntervalMs: number;
  /** How long a stopping server has between SIGTERM and SIGKILL. */
  stopGraceMs: number;
}

const DEFAULT_TIMINGS: SupervisorTimings = { probeTimeoutMs: 2_000, probeIntervalMs: 250, stopGraceMs: 5_000 };

interface Service {
  spec: LocalServiceSpec;
  /** Requests holding the service now. */
  leases: number;
  /** The server this supervisor started (absent: none, or another process's server answers the health URL). */
  process?: ServiceProcess;
  /** The one start under way, shared by every request that arrives meanwhile. */
  starting?: Promise<void>;
  stopping?: Promise<void>;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Starts a local model server when a request needs it and it does not answer, and stops the ones
 * it started (idle, or when this process stops). Each request holds a lease from before its
 * health check until its response is handled, so an idle stop never cuts a request short:
 *
 * - A request probes the health URL. A healthy server is used as it is, also one this supervisor
 *   did not start (another process's, or one started by hand): that one is never stopped here.
 * - Otherwise one start runs for all waiting requests: a server this supervisor started that
 *   stopped answering is stopped first, then the command is spawned and probed every
 *   `probeIntervalMs` until it answers, exits, or `readyTimeoutMs` passes.
 * - With `idleStopMs`, a server this supervisor started is stopped once no lease held it for
 *   that long; the next request starts it again.
 */
export class LocalServiceSupervisor {
  private readonly services = new Map<string, Service>();
  private readonly timings: SupervisorTimings;
  private log: LocalServiceLog = () => {};
  private exitHookInstalled = false;

  constructor(timings: Partial<SupervisorTimings> = {}) {
    this.timings = { ...DEFAULT_TIMINGS, ...timings };
  }

  /** Where starts, readiness, exits and stops are reported. */
  setLog(log: LocalServiceLog): void {
    this.log = log;
  }

  /** Resolves once the service answers its health URL, holding it until `release`. Rejects with an error that names the service and why. */
  async lease(spec: LocalServiceSpec, signal?: AbortSignal): Promise<LocalServiceLease> {
    signal?.throwIfAborted();
    const key = localServiceKey(spec);
    let service = this.services.get(key);
    while (service?.stopping) {
      await abortable(service.stopping, signal);
      service = this.services.get(key);
    }
    if (!service) {
      service = { spec, leases: 0 };
      this.services.set(key, service);
    }
    const held = service;
    clearTimeout(held.idleTimer);
    held.leases++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      held.leases--;
      if (held.leases === 0) this.whenIdle(key, held);
    };
    try {
      await abortable(this.ready(key, held), signal);
      return { release };
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Stops every server this supervisor started, each as an idle stop would. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.services].map(([key, service]) => this.stop(key, service, "this process is stopping")));
  }

  /** The servers this supervisor started and that still run, by label. */
  running(): { label: string; pid: number }[] {
    return [...this.services.values()].flatMap((s) => (s.process?.alive ? [{ label: s.spec.label, pid: s.process.pid }] : []));
  }

  private async ready(key: string, service: Service): Promise<void> {
    if (!service.starting) {
      if (await probeHealth(service.spec.healthUrl, service.spec.healthHeaders, this.timings.probeTimeoutMs)) return;
      // A server of ours that is serving other requests is busy, not gone: a restart would cut them off.
      if (service.process?.alive && service.leases > 1 && !service.starting) return;
      // A start begun by another request while this one probed serves this one too.
      service.starting ??= this.start(service).finally(() => {
        service.starting = undefined;
        // Every request that waited may have given up meanwhile.
        if (service.leases === 0) this.whenIdle(key, service);
      });
    }
    await service.starting;
  }

  private async start(service: Service): Promise<void> {
    const { spec } = service;
    if (service.process?.alive) {
      this.log("warn", `${spec.label}: the server (pid ${service.process.pid}) no longer answers ${spec.healthUrl}; restarting it`);
      await service.process.stop(this.timings.stopGraceMs);
    }
    const startedAt = Date.now();
    let server: ServiceProcess;
    try {
      server = await ServiceProcess.start(spec);
    } catch (err) {
      throw new Error(`${spec.label}: could not start ${spec.command}: ${(err as Error).message} (command must be the server's absolute path, executable by the gateway's user)`);
    }
    service.process = server;
    this.installExitHook();
    this.log("info", `${spec.label}: started ${spec.command} (pid ${server.pid}); waiting for ${spec.healthUrl}`);
    void server.exited.then((exit) => {
      if (service.process === server && !service.stopping) {
        this.log("warn", `${spec.label}: the server (pid ${server.pid}) exited with ${describeExit(exit)}${outputSuffix(server)}`);
      }
    });

    const deadline = startedAt + spec.readyTimeoutMs;
    for (;;) {
      if (!server.alive) throw new Error(`${spec.label}: ${spec.command} exited with ${describeExit(server.exit!)} before it answered ${spec.healthUrl}${outputSuffix(server)}`);
      if (await probeHealth(spec.healthUrl, spec.healthHeaders, Math.min(this.timings.probeTimeoutMs, Math.max(1, deadline - Date.now())))) break;
      if (Date.now() >= deadline) {
        const output = outputSuffix(server);
        await server.stop(this.timings.stopGraceMs).catch(() => {});
        throw new Error(
          `${spec.label}: ${spec.command} did not answer ${spec.healthUrl} within ${spec.readyTimeoutMs} ms (readyTimeoutMs); stopped it${output} (raise readyTimeoutMs for a slow start, or set healthUrl to where the server answers once ready)`,
        );
      }
      await Promise.race([sleep(Math.min(this.timings.probeIntervalMs, Math.max(1, deadline - Date.now()))), server.exited]);
    }
    this.log("info", `${spec.label}: ready after ${Date.now() - startedAt} ms (pid ${server.pid})`);
  }

  private whenIdle(key: string, service: Service): void {
    if (service.starting || service.stopping || this.services.get(key) !== service) return;
    if (!service.process?.alive) {
      this.services.delete(key);
      return;
    }
    if (service.spec.idleStopMs <= 0) return;
    service.idleTimer = setTimeout(() => {
      if (service.leases === 0 && !service.starting) {
        void this.stop(key, service, `idle for ${service.spec.idleStopMs} ms (idleStopMs)`).catch((err) => this.log("warn", `${service.spec.label}: ${(err as Error).message}`));
      }
    }, service.spec.idleStopMs);
    service.idleTimer.unref();
  }

  private stop(key: string, service: Service, why: string): Promise<void> {
    if (service.stopping) return service.stopping;
    clearTimeout(service.idleTimer);
    const server = service.process;
    const work = (async () => {
      // A start under way finishes (or fails) first: its process is then the one to stop.
      await service.starting?.catch(() => {});
      const current = service.process;
      if (!current?.alive) return;
      this.log("info", `${service.spec.label}: stopping the server (pid ${current.pid}): ${why}`);
      await current.stop(this.timings.stopGraceMs);
    })();
    service.stopping = work.finally(() => {
      if (this.services.get(key) === service) this.services.delete(key);
      service.stopping = undefined;
      if (server) service.process = undefined;
    });
    return service.stopping;
  }

  /** A process that exits without stopping its servers (an uncaught error, process.exit) takes them along. */
  private installExitHook(): void {
    if (this.exitHookInstalled) return;
    this.exitHookInstalled = true;
    process.once("exit", () => {
      for (const service of this.services.values()) service.process?.killNow();
    });
  }
}

function outputSuffix(server: ServiceProcess): string {
  const tail = server.outputTail();
  return tail ? `; its last output: ${tail.length > 1000 ? `…${tail.slice(-1000)}` : tail}` : "";
}

/** `work`, or the signal's reason once it aborts (the work itself goes on for the others waiting). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
