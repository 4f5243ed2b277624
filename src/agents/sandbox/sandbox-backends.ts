import fs from "node:fs";
import path from "node:path";
import type { SandboxBackendName, SandboxSettings } from "./sandbox-settings.js";

/** What one sandboxed command may see and do. */
export interface SandboxPlan {
  /** The directory mounted at its own path: writable with `rw` (and for a sandbox copy), else read-only. */
  workspaceDir: string;
  writable: boolean;
  /** Where the command starts (inside `workspaceDir`). */
  cwd: string;
  network: "none" | "host";
  /** The whole environment of the command (already scrubbed of secrets). */
  env: Record<string, string>;
  /** `docker.binds`: more host paths the command sees, each at its sandbox path. */
  binds: readonly { source: string; target: string; writable: boolean }[];
  /** Docker only: the container's name (so it can be removed) and image. */
  containerName: string;
  image: string;
}

/** How to start `/bin/sh -c <command>` inside the sandbox: the program and its arguments before the shell. */
export interface SandboxLaunch {
  file: string;
  args: string[];
}

export const INSTALL_HINTS: Record<SandboxBackendName, string> = {
  bwrap: "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)",
  docker: "install Docker (https://docs.docker.com/engine/install/) and make sure `docker` is on the gateway's PATH and its daemon runs",
};

const BINARIES: Record<SandboxBackendName, string> = { bwrap: "bwrap", docker: "docker" };

/** The first executable named `name` on `PATH`, or undefined. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The backend a sandbox uses: the configured one, else bubblewrap on Linux when installed, else Docker. */
export function chooseBackend(settings: Pick<SandboxSettings, "backend">, env: NodeJS.ProcessEnv, platform = process.platform): SandboxBackendName {
  if (settings.backend) return settings.backend;
  return platform === "linux" && findExecutable(BINARIES.bwrap, env) ? "bwrap" : "docker";
}

export function backendBinary(backend: SandboxBackendName, env: NodeJS.ProcessEnv): string | undefined {
  return findExecutable(BINARIES[backend], env);
}

/** System directories the sandbox sees read-only (those that exist); nothing else of the host. */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"];
/** Files under /etc that hold secrets: hidden behind an empty file. */
const HIDDEN_FILES = ["/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/sudoers", "/etc/ssh"];

/**
 * bubblewrap: new user, PID, IPC, UTS, cgroup and (unless `network: host`) network namespaces;
 * the system directories read-only; a private /tmp, /proc and /dev; the workspace as the only
 * host directory, writable only when the plan says so. `--die-with-parent` and the PID namespace
 * mean killing bwrap kills everything the command started.
 */
export function bwrapLaunch(binary: string, plan: SandboxPlan): SandboxLaunch {
  const args = ["--die-with-parent", "--new-session", "--unshare-all"];
  if (plan.network === "host") args.push("--share-net");
  for (const dir of SYSTEM_DIRS) if (fs.existsSync(dir)) args.push("--ro-bind", dir, dir);
  for (const file of HIDDEN_FILES) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory()) args.push("--tmpfs", file);
    else if (stat) args.push("--ro-bind", "/dev/null", file);
  }
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  args.push(plan.writable ? "--bind" : "--ro-bind", plan.workspaceDir, plan.workspaceDir);
  for (const bind of plan.binds) args.push(bind.writable ? "--bind" : "--ro-bind", bind.source, bind.target);
  args.push("--chdir", plan.cwd, "--clearenv");
  for (const [key, value] of Object.entries(plan.env)) args.push("--setenv", key, value);
  args.push("--");
  return { file: binary, args };
}

/**
 * Docker: the same policy as a container — read-only root, no capabilities, no new privileges,
 * no network unless `host`, a private /tmp, the workspace mounted at its own path. `--rm` and a
 * known name let the gateway remove it when the turn ends.
 */
export function dockerLaunch(binary: string, plan: SandboxPlan): SandboxLaunch {
  const args = [
    "run",
    "--rm",
    "--init",
    "--name",
    plan.containerName,
    "--network",
    plan.network === "host" ? "host" : "none",
    "--read-only",
    "--tmpfs",
    "/tmp",
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    "--pids-limit",
    "512",
    "-v",
    `${plan.workspaceDir}:${plan.workspaceDir}:${plan.writable ? "rw" : "ro"}`,
    "-w",
    plan.cwd,
  ];
  for (const bind of plan.binds) args.push("-v", `${bind.source}:${bind.target}:${bind.writable ? "rw" : "ro"}`);
  for (const [key, value] of Object.entries(plan.env)) args.push("-e", `${key}=${value}`);
  args.push(plan.image);
  return { file: binary, args };
}
