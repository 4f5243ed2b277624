import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExecSandbox } from "../../../src/agents/sandbox/exec-sandbox.js";
import type { SandboxSettings } from "../../../src/agents/sandbox/sandbox-settings.js";
import { createExecTool } from "../../../src/agents/tools/exec.js";
import { ProcessRegistry } from "../../../src/agents/tools/process-registry.js";
import { installFakeDocker } from "../../fakes/fake-docker.js";
import { errorOf, isProcessGone, makeContext, makeTempDir, makeWorkspace, neverAborted, textOf, waitFor } from "./helpers.js";

/**
 * exec in a sandbox: bubblewrap for real (installed here and by .ci/run), Docker through a fake
 * `docker` that records its arguments. The policy: the workspace is the only writable host
 * directory, system directories are read-only, nothing else of the host is visible, no network
 * unless asked, a fresh PID namespace, and everything ends with the turn.
 */

const exec = createExecTool();
const settings = (over: Partial<SandboxSettings> = {}): SandboxSettings => ({
  mode: "all",
  backend: "bwrap",
  scope: "session",
  workspaceAccess: "rw",
  network: "none",
  dockerImage: "debian:bookworm-slim",
  binds: [],
  ...over,
});
const registries: ProcessRegistry[] = [];
afterEach(() => {
  for (const registry of registries.splice(0)) registry.killAll();
});

function sandboxed(over: Partial<SandboxSettings> = {}, writable = true, env: NodeJS.ProcessEnv = process.env, stateDir = makeTempDir()) {
  const { workspace, outside } = makeWorkspace();
  const real = fs.realpathSync(workspace);
  const sandbox = new ExecSandbox(settings(over), real, writable, env, stateDir);
  const processes = new ProcessRegistry();
  registries.push(processes);
  return { workspace: real, outside, sandbox, ctx: { ...makeContext(real, { processes }), sandbox } };
}

async function run(ctx: Parameters<typeof exec.execute>[1], command: string) {
  const result = await exec.execute({ command }, ctx, neverAborted);
  return { text: textOf(result), details: result.details as { exitCode?: number } };
}

describe("exec in a bubblewrap sandbox", () => {
  it("writes only to the workspace; system directories are read-only; the rest of the host is not there", async () => {
    const { ctx, workspace, outside } = sandboxed();
    fs.writeFileSync(path.join(outside, "secret.txt"), "host secret");
    const inside = await run(ctx, "echo made > made.txt && cat made.txt");
    expect(inside.text).toContain("made");
    expect(fs.readFileSync(path.join(workspace, "made.txt"), "utf8")).toBe("made\n");
    const system = await run(ctx, "touch /usr/pwned 2>&1; echo rc=$?");
    expect(system.text).toMatch(/rc=1/);
    expect(fs.existsSync("/usr/pwned")).toBe(false);
    const hidden = await run(ctx, `cat ${path.join(outside, "secret.txt")} 2>&1; ls /root 2>&1; echo HOME=$HOME`);
    expect(hidden.text).not.toContain("host secret");
    expect(hidden.text).toContain("HOME=/tmp");
    expect((await run(ctx, "cat /etc/shadow | wc -c")).text).toMatch(/^0\b/m);
  });

  it("has no network unless sandbox.network is host", async () => {
    const interfaces = async (ctx: Parameters<typeof exec.execute>[1]) => {
      const out = (await run(ctx, "echo IFACES=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ,)")).text;
      return /IFACES=(\S*)/.exec(out)![1]!.split(",").filter(Boolean);
    };
    expect(await interfaces(sandboxed().ctx)).toEqual(["lo"]);
    expect((await interfaces(sandboxed({ network: "host" }).ctx)).length).toBeGreaterThan(1);
  });

  it("runs in a fresh PID namespace: the host's processes are not visible", async () => {
    const { ctx } = sandboxed();
    const count = Number((await run(ctx, "ls /proc | grep -c '^[0-9][0-9]*$'")).text.trim().split("\n")[0]);
    expect(count).toBeLessThan(6);
  });

  it("a read-only workspace refuses writes", async () => {
    const { ctx, workspace } = sandboxed({ workspaceAccess: "ro" }, false);
    fs.writeFileSync(path.join(workspace, "readme.txt"), "readable");
    const out = await run(ctx, "cat readme.txt; echo x > new.txt 2>&1; echo rc=$?");
    expect(out.text).toContain("readable");
    expect(out.text).toMatch(/rc=[12]/);
    expect(fs.existsSync(path.join(workspace, "new.txt"))).toBe(false);
  });

  it("background jobs die with the turn, down to the command inside the sandbox", async () => {
    const { ctx, sandbox } = sandboxed();
    // A duration no other test uses: the command is found by its arguments, inside the sandbox's PID namespace too.
    const started = await exec.execute({ command: "sleep 297", background: true }, ctx, neverAborted);
    const { sessionId, pid } = started.details as { sessionId: string; pid: number };
    expect(ctx.services.processes!.get(sessionId)?.running).toBe(true);
    await waitFor(() => commandsRunning("sleep 297") > 0, 10_000, "the command to start inside the sandbox");
    sandbox.endTurn();
    await waitFor(() => !ctx.services.processes!.get(sessionId)!.running, 10_000, "the sandboxed job to end");
    expect(isProcessGone(pid)).toBe(true);
    await waitFor(() => commandsRunning("sleep 297") === 0, 10_000, "every process of the sandbox to end");
  });

  it("docker.binds: a read-only bind is visible and not writable, a read-write one takes writes", async () => {
    const shared = fs.realpathSync(makeTempDir());
    fs.writeFileSync(path.join(shared, "notes.txt"), "from the host");
    const drop = fs.realpathSync(makeTempDir());
    const { ctx } = sandboxed({
      binds: [
        { source: shared, target: "/mnt/shared", writable: false },
        { source: drop, target: "/mnt/drop", writable: true },
      ],
    });
    const out = await run(ctx, "cat /mnt/shared/notes.txt; touch /mnt/shared/x 2>&1; echo rc=$?; echo out > /mnt/drop/result.txt");
    expect(out.text).toContain("from the host");
    expect(out.text).toMatch(/rc=1/);
    expect(fs.existsSync(path.join(shared, "x"))).toBe(false);
    expect(fs.readFileSync(path.join(drop, "result.txt"), "utf8")).toBe("out\n");
  });

  it("docker.binds: a symlink that leads to a refused path, or a missing path, refuses the command", async () => {
    const links = fs.realpathSync(makeTempDir());
    fs.symlinkSync("/etc", path.join(links, "etc-link"));
    const viaLink = sandboxed({ binds: [{ source: path.join(links, "etc-link"), target: "/mnt/conf", writable: false }] });
    const refused = errorOf(await exec.execute({ command: "ls /mnt/conf" }, viaLink.ctx, neverAborted));
    expect(refused.message).toContain("which resolves to /etc");
    const missing = sandboxed({ binds: [{ source: path.join(links, "nothing-here"), target: "/mnt/x", writable: false }] });
    expect(errorOf(await exec.execute({ command: "true" }, missing.ctx, neverAborted)).message).toContain("does not exist on this host");
  });

  it("docker.binds never shows the gateway's state dir: the command is refused", async () => {
    const stateDir = fs.realpathSync(makeTempDir());
    const { ctx } = sandboxed({ binds: [{ source: path.dirname(stateDir), target: "/mnt/up", writable: false }] }, true, process.env, stateDir);
    const refused = errorOf(await exec.execute({ command: "ls /mnt/up" }, ctx, neverAborted));
    expect(refused.error).toBe("SANDBOX_UNAVAILABLE");
    expect(refused.message).toContain(`which holds or is inside the gateway's state dir (${stateDir})`);
  });

  it("fails closed with the install hint when bubblewrap is missing", async () => {
    const empty = makeTempDir();
    const { ctx, workspace } = sandboxed({}, true, { PATH: empty });
    const refused = errorOf(await exec.execute({ command: "touch ran.txt" }, ctx, neverAborted));
    expect(refused.error).toBe("SANDBOX_UNAVAILABLE");
    expect(refused.message).toContain('backend "bwrap" is not installed');
    expect(refused.message).toContain("apt-get install bubblewrap");
    expect(fs.existsSync(path.join(workspace, "ran.txt"))).toBe(false);
  });
});

describe("exec in a Docker sandbox (fake docker)", () => {
  it("runs `docker run` with the same policy and the command after the image", async () => {
    const docker = installFakeDocker(makeTempDir());
    const env = { PATH: `${docker.dir}:${process.env.PATH}` };
    const { ctx, workspace } = sandboxed({ backend: "docker", dockerImage: "example/sandbox:1" }, true, env);
    const out = await run(ctx, "echo from-container");
    expect(out.text).toContain("from-container");
    const [call] = docker.calls();
    expect(call!.slice(0, 4)).toEqual(["run", "--rm", "--init", "--name"]);
    const flag = (name: string) => call![call!.indexOf(name) + 1];
    expect(flag("--network")).toBe("none");
    expect(call).toContain("--read-only");
    expect(flag("--cap-drop")).toBe("ALL");
    expect(flag("--security-opt")).toBe("no-new-privileges");
    expect(flag("-v")).toBe(`${workspace}:${workspace}:rw`);
    expect(flag("-w")).toBe(workspace);
    expect(call!.slice(call!.indexOf("example/sandbox:1") + 1, call!.indexOf("example/sandbox:1") + 3)).toEqual(["/bin/sh", "-c"]);
    expect(call!.some((a) => a.startsWith("-e") || a.startsWith("HOME="))).toBe(true);
    expect(call).toContain("HOME=/tmp");
  });

  it("network host and a read-only workspace reach the docker arguments; a kill removes the container", async () => {
    const docker = installFakeDocker(makeTempDir());
    const env = { PATH: `${docker.dir}:${process.env.PATH}` };
    const { ctx, workspace, sandbox } = sandboxed({ backend: "docker", network: "host", workspaceAccess: "ro" }, false, env);
    await exec.execute({ command: "sleep 300", background: true }, ctx, neverAborted);
    await waitFor(() => docker.calls().some((c) => c[0] === "run"), 10_000, "docker run");
    sandbox.endTurn();
    await waitFor(() => docker.calls().some((c) => c[0] === "rm"), 10_000, "docker rm -f");
    const [run0] = docker.calls();
    expect(run0![run0!.indexOf("--network") + 1]).toBe("host");
    expect(run0![run0!.indexOf("-v") + 1]).toBe(`${workspace}:${workspace}:ro`);
    const rm = docker.calls().find((c) => c[0] === "rm")!;
    expect(rm).toEqual(["rm", "-f", run0![run0!.indexOf("--name") + 1]]);
  });

  it("docker.binds become -v host:sandbox:mode", async () => {
    const docker = installFakeDocker(makeTempDir());
    const env = { PATH: `${docker.dir}:${process.env.PATH}` };
    const data = fs.realpathSync(makeTempDir());
    const { ctx, workspace } = sandboxed({ backend: "docker", binds: [{ source: data, target: "/mnt/data", writable: false }] }, true, env);
    await run(ctx, "true");
    const [call] = docker.calls();
    const volumes = call!.flatMap((arg, i) => (arg === "-v" ? [call![i + 1]] : []));
    expect(volumes).toEqual([`${workspace}:${workspace}:rw`, `${data}:/mnt/data:ro`]);
  });

  it("fails closed when docker is missing", async () => {
    const { ctx } = sandboxed({ backend: "docker" }, true, { PATH: makeTempDir() });
    const refused = errorOf(await exec.execute({ command: "true" }, ctx, neverAborted));
    expect(refused.error).toBe("SANDBOX_UNAVAILABLE");
    expect(refused.message).toContain("install Docker");
  });
});

/** How many processes on this host run exactly `command` (read from /proc: sandboxed ones are visible from outside). */
function commandsRunning(command: string): number {
  let count = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ") === command) count += 1;
    } catch {
      // the process ended meanwhile
    }
  }
  return count;
}
