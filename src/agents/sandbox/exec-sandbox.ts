import { spawn } from "node:child_process";
import fs from "node:fs";
import { parseSandboxBind } from "../../config/sandbox-binds.js";
import { randomBytes } from "node:crypto";
import { backendBinary, bwrapLaunch, chooseBackend, dockerLaunch, INSTALL_HINTS, type SandboxLaunch } from "./sandbox-backends.js";
import type { SandboxBackendName, SandboxSettings } from "./sandbox-settings.js";

/** A running command the sandbox must end with the turn. */
export interface SandboxedJob {
  readonly running: boolean;
  kill(reason?: "killed" | "timed_out"): void;
}

export type SandboxLaunchResult =
  | { ok: true; launch: SandboxLaunch /** Removes what the launch left behind (a Docker container). */; cleanup: () => void }
  | { ok: false; backend: SandboxBackendName; hint: string }
  | { ok: false; refused: string };

/**
 * The sandbox of one turn: how its `exec` commands start, and the jobs to end with the turn.
 * A missing backend is never a reason to run on the host: `launch` then refuses, naming the
 * backend and how to install it.
 */
export class ExecSandbox {
  readonly backend: SandboxBackendName;
  private readonly binary: string | undefined;
  private readonly jobs = new Set<SandboxedJob>();

  constructor(
    readonly settings: SandboxSettings,
    /** The directory the sandbox mounts: the agent's workspace, or its sandbox copy. */
    readonly workspaceDir: string,
    /** Whether that directory is writable inside (`rw`, or a sandbox copy). */
    readonly writable: boolean,
    env: NodeJS.ProcessEnv,
    /** The gateway's state dir: no bind may show it (keys, sessions, config) to the sandbox. */
    private readonly stateDir: string,
  ) {
    this.backend = chooseBackend(settings, env);
    this.binary = backendBinary(this.backend, env);
  }

  get available(): boolean {
    return this.binary !== undefined;
  }

  /** One line for prompts and `openclaw sandbox explain`. */
  describe(): string {
    const access = this.writable ? "writable" : "read-only";
    const binds = this.settings.binds.map((b) => `${b.source} at ${b.target} ${b.writable ? "writable" : "read-only"}`).join(", ");
    return `${this.backend} sandbox: ${this.workspaceDir} ${access}, network ${this.settings.network}, scope ${this.settings.scope}${binds ? `; also ${binds}` : ""}`;
  }

  launch(cwd: string, env: Record<string, string>): SandboxLaunchResult {
    if (!this.binary) return { ok: false, backend: this.backend, hint: INSTALL_HINTS[this.backend] };
    const refusal = this.bindRefusal();
    if (refusal) return { ok: false, refused: refusal };
    const containerName = `openclaw-sandbox-${randomBytes(6).toString("hex")}`;
    const plan = {
      workspaceDir: this.workspaceDir,
      writable: this.writable,
      cwd,
      network: this.settings.network,
      env: { ...env, HOME: "/tmp" },
      containerName,
      image: this.settings.dockerImage,
      binds: this.settings.binds,
    };
    if (this.backend === "bwrap") return { ok: true, launch: bwrapLaunch(this.binary, plan), cleanup: () => {} };
    const binary = this.binary;
    let removed = false;
    return {
      ok: true,
      launch: dockerLaunch(binary, plan),
      // Killing the docker client does not always stop its container: remove it by name, once
      // (a command killed twice, by the turn's end and a `process kill`, asks twice).
      cleanup: () => {
        if (removed) return;
        removed = true;
        const child = spawn(binary, ["rm", "-f", containerName], { stdio: "ignore", detached: true });
        child.on("error", () => {});
        child.unref();
      },
    };
  }

  /**
   * Why the binds may not be mounted now: one resolves (through symlinks) to a path the config
   * check refuses, or shows the gateway's state dir. Undefined when they may.
   */
  private bindRefusal(): string | undefined {
    for (const bind of this.settings.binds) {
      let real: string;
      try {
        real = fs.realpathSync(bind.source);
      } catch {
        return `sandbox.docker.binds mounts ${bind.source}, which does not exist on this host; create it or remove the bind`;
      }
      const recheck = parseSandboxBind(`${real}:${bind.target}`);
      if ("problem" in recheck) return `sandbox.docker.binds mounts ${bind.source}, which resolves to ${real}: ${recheck.problem}`;
      if (overlaps(real, this.stateDir))
        return `sandbox.docker.binds mounts ${bind.source}, which holds or is inside the gateway's state dir (${this.stateDir}); mount a directory outside it`;
    }
    return undefined;
  }

  /** A command started in this sandbox: it is ended with the turn if still running then. */
  track(job: SandboxedJob): void {
    this.jobs.add(job);
  }

  /** The turn is over: every command it started in the sandbox is killed. */
  endTurn(): void {
    for (const job of this.jobs) if (job.running) job.kill("killed");
    this.jobs.clear();
  }
}

/** One path is the other or inside it (either way round). */
function overlaps(a: string, b: string): boolean {
  const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
  return inside(a, b) || inside(b, a);
}
