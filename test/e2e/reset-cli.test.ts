import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { systemdUnitPath } from "../../src/cli/service/service-spec.js";
import { CLI, cleanEnv, makeTempDir, startGateway } from "../helpers/gateway-process.js";

/**
 * `openclaw reset` with the real CLI on a real state dir: each scope moves what OpenClaw's takes to
 * the freedesktop Trash (with `.trashinfo` naming where it was) and leaves the rest; --dry-run and
 * every refusal change nothing; a running gateway stops the wider scopes.
 */

interface Home {
  home: string;
  stateDir: string;
  workspace: string;
  trash: string;
}

/** A home with a state dir as a gateway leaves it, and a workspace outside it. */
function makeHome(): Home {
  const home = makeTempDir("openclaw-reset-home-");
  const stateDir = path.join(home, ".openclaw");
  const workspace = path.join(home, "agent-workspace");
  fs.mkdirSync(path.join(stateDir, "credentials"), { recursive: true });
  fs.mkdirSync(path.join(stateDir, "agents", "main", "sessions"), { recursive: true });
  fs.mkdirSync(path.join(stateDir, "agents", "main", "agent"), { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ agents: { defaults: { workspace } } }));
  fs.writeFileSync(path.join(stateDir, "credentials", "gateway.token"), "tok");
  fs.writeFileSync(path.join(stateDir, "agents", "main", "sessions", "s1.jsonl"), "{}\n");
  fs.writeFileSync(path.join(stateDir, "agents", "main", "agent", "auth-profiles.json"), "{}");
  fs.writeFileSync(path.join(workspace, "AGENTS.md"), "# rules\n");
  return { home, stateDir, workspace, trash: path.join(home, ".local", "share", "Trash") };
}

function reset(home: Home, args: string[], cwd = home.home): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return openclaw(home, ["reset", ...args], cwd);
}

/** The CLI in `home` (its Trash and service folders there); `bin` first on PATH when given. */
function openclaw(home: Home, args: string[], cwd = home.home, bin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = cleanEnv({ HOME: home.home, OPENCLAW_STATE_DIR: home.stateDir, ...(bin ? { PATH: `${bin}:${process.env.PATH}` } : {}) });
  delete env.XDG_DATA_HOME;
  delete env.XDG_CONFIG_HOME;
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Every file and folder under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

function trashInfoPath(home: Home, name: string): string {
  return /^Path=(.*)$/m.exec(fs.readFileSync(path.join(home.trash, "info", `${name}.trashinfo`), "utf8"))![1]!;
}

describe("openclaw reset", { timeout: 60_000 }, () => {
  it("config+creds+sessions moves the config, credentials and sessions to the Trash; workspaces and model keys stay", async () => {
    const home = makeHome();
    const result = await reset(home, ["--scope", "config+creds+sessions", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Recommended first: openclaw backup create");
    expect(result.stdout).toContain(`Moved to the Trash: ${path.join(home.stateDir, "credentials")} (credentials)`);
    expect(result.stdout).toContain("Next: openclaw onboard");
    expect(tree(home.stateDir)).toEqual(["agents", "agents/main", "agents/main/agent", "agents/main/agent/auth-profiles.json"]);
    expect(tree(home.workspace)).toEqual(["AGENTS.md"]);
    expect(fs.readdirSync(path.join(home.trash, "files")).sort()).toEqual(["credentials", "openclaw.json", "sessions"]);
    expect(fs.readFileSync(path.join(home.trash, "files", "credentials", "gateway.token"), "utf8")).toBe("tok");
    expect(trashInfoPath(home, "sessions")).toBe(path.join(home.stateDir, "agents", "main", "sessions"));
  });

  it("full moves the state dir and the workspace; a second trashed name gets a suffix", async () => {
    const home = makeHome();
    const dry = await reset(home, ["--scope", "full", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`[dry-run] move to the Trash: ${home.stateDir} (state dir)`);
    expect(dry.stdout).toContain(`[dry-run] move to the Trash: ${home.workspace} (workspace)`);
    expect(dry.stdout).not.toContain("(config file)");
    expect(fs.existsSync(home.trash)).toBe(false);
    expect(tree(home.stateDir)).toContain("openclaw.json");

    const result = await reset(home, ["--scope", "full", "--yes", "--non-interactive"]);
    expect(result.code, result.stderr).toBe(0);
    expect(fs.existsSync(home.stateDir)).toBe(false);
    expect(fs.existsSync(home.workspace)).toBe(false);
    expect(fs.readdirSync(path.join(home.trash, "files")).sort()).toEqual([".openclaw", "agent-workspace"]);
    expect(tree(path.join(home.trash, "files", ".openclaw"))).toContain("openclaw.json");

    fs.mkdirSync(home.stateDir);
    fs.writeFileSync(path.join(home.stateDir, "openclaw.json"), "{}");
    expect((await reset(home, ["--scope", "config", "--yes"])).code).toBe(0);
    expect(fs.readdirSync(path.join(home.trash, "files")).sort()).toEqual([".openclaw", "agent-workspace", "openclaw.json"]);
    fs.writeFileSync(path.join(home.stateDir, "openclaw.json"), "{}");
    expect((await reset(home, ["--scope", "config", "--yes"])).code).toBe(0);
    expect(fs.readdirSync(path.join(home.trash, "files")).sort()).toEqual([".openclaw", "agent-workspace", "openclaw.json", "openclaw.json.2"]);
    expect(trashInfoPath(home, "openclaw.json.2")).toBe(path.join(home.stateDir, "openclaw.json"));
  });

  it("refuses without --yes off a terminal, without --scope, with a bad scope, and a target holding the working folder; nothing changes", async () => {
    const home = makeHome();
    const before = tree(home.stateDir);
    const cases: [string[], string][] = [
      [["--scope", "full"], "without a terminal, pass --yes"],
      [["--yes"], "Pass --scope"],
      [["--non-interactive", "--scope", "full"], "Non-interactive mode requires --yes."],
      [["--non-interactive", "--yes"], "Non-interactive mode requires --scope."],
      [["--scope", "everything", "--yes"], 'Invalid --scope "everything"'],
    ];
    for (const [args, message] of cases) {
      const result = await reset(home, args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toContain(message);
    }
    const inside = await reset(home, ["--scope", "full", "--yes"], home.workspace);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toContain(`Refusing to move ${home.workspace}: it holds the working folder (run reset from another folder).\nNothing was changed.`);
    expect(tree(home.stateDir)).toEqual(before);
    expect(tree(home.workspace)).toEqual(["AGENTS.md"]);
    expect(fs.existsSync(home.trash)).toBe(false);
  });

  it("a running gateway no service manages stops every scope wider than the config", async () => {
    const home = makeHome();
    const gw = await startGateway({ stateDir: home.stateDir });
    try {
      for (const scope of ["config+creds+sessions", "full"]) {
        const result = await reset(home, ["--scope", scope, "--yes"]);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`A gateway is running on ${home.stateDir} (pid ${gw.proc.pid}`);
        expect(result.stderr).toContain("stop it first (openclaw gateway stop)");
      }
      for (const kept of ["openclaw.json", "credentials/gateway.token", "agents/main/sessions/s1.jsonl"]) expect(fs.existsSync(path.join(home.stateDir, kept)), kept).toBe(true);
      expect(fs.existsSync(home.workspace)).toBe(true);
      expect(fs.existsSync(home.trash)).toBe(false);
    } finally {
      await gw.stop();
    }
  });
});

/** A fake `systemctl` that records its arguments (fails with `failing`, runs `onStop` for a `stop`), and the gateway's unit file where systemd keeps it. */
function installedService(home: Home, failing = false, onStop = ""): { bin: string; calls: () => string[]; unit: string } {
  const bin = path.join(home.home, "bin");
  const record = path.join(home.home, "systemctl.log");
  fs.mkdirSync(bin, { recursive: true });
  const stop = onStop ? `case "$*" in *" stop "*) ${onStop};; esac\n` : "";
  fs.writeFileSync(path.join(bin, "systemctl"), `#!/bin/sh\necho "$*" >> "${record}"\n${stop}${failing ? 'echo "Failed to disable unit: Access denied" >&2\nexit 1\n' : ""}`, {
    mode: 0o755,
  });
  const unit = systemdUnitPath({ HOME: home.home });
  fs.mkdirSync(path.dirname(unit), { recursive: true });
  fs.writeFileSync(unit, "[Unit]\n");
  return { bin, unit, calls: () => (fs.existsSync(record) ? fs.readFileSync(record, "utf8").trim().split("\n") : []) };
}

describe("openclaw reset with the gateway service installed", { timeout: 60_000 }, () => {
  it("stops the running service first (a dry run only says so), then resets", async () => {
    const home = makeHome();
    const gw = await startGateway({ stateDir: home.stateDir });
    // systemd's stop returns once the unit's process has exited.
    const service = installedService(home, false, `kill -TERM ${gw.proc.pid}; while kill -0 ${gw.proc.pid} 2>/dev/null; do sleep 0.1; done`);
    try {
      const dry = await openclaw(home, ["reset", "--scope", "config+creds+sessions", "--dry-run", "--yes"], home.home, service.bin);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain(`[dry-run] stop the gateway service (pid ${gw.proc.pid})`);
      expect(service.calls()).toEqual([]);
      expect(gw.proc.exitCode).toBeNull();

      const result = await openclaw(home, ["reset", "--scope", "config+creds+sessions", "--yes"], home.home, service.bin);
      expect(result.code, result.stderr).toBe(0);
      expect(service.calls()).toEqual(["--user stop openclaw-gateway.service"]);
      expect(result.stdout).toContain("Stopped the gateway service (openclaw-gateway.service)");
      expect(result.stdout.indexOf("Stopped the gateway service")).toBeLessThan(result.stdout.indexOf("Moved to the Trash"));
      expect(fs.readdirSync(path.join(home.trash, "files")).sort()).toEqual(["credentials", "openclaw.json", "sessions"]);
      // The service itself stays installed.
      expect(fs.existsSync(service.unit)).toBe(true);
    } finally {
      await gw.stop();
    }
  });

  it("a gateway the service's stop does not end is refused, nothing moved", async () => {
    const home = makeHome();
    const gw = await startGateway({ stateDir: home.stateDir });
    const service = installedService(home);
    try {
      const result = await openclaw(home, ["reset", "--scope", "full", "--yes"], home.home, service.bin);
      expect(result.code).toBe(1);
      expect(service.calls()).toEqual(["--user stop openclaw-gateway.service"]);
      expect(result.stderr).toContain(`A gateway is running on ${home.stateDir} (pid ${gw.proc.pid}`);
      expect(result.stderr).toContain("stopping the gateway service (openclaw-gateway.service) did not stop it");
      expect(fs.existsSync(path.join(home.stateDir, "openclaw.json"))).toBe(true);
      expect(fs.existsSync(home.trash)).toBe(false);
    } finally {
      await gw.stop();
    }
  });
});

describe("openclaw uninstall", { timeout: 60_000 }, () => {
  it("--all removes the service, moves the state dir and the workspace to the Trash, and says there is no app", async () => {
    const home = makeHome();
    const service = installedService(home);
    const result = await openclaw(home, ["uninstall", "--all", "--yes"], home.home, service.bin);
    expect(result.code, result.stderr).toBe(0);
    expect(service.calls()).toEqual(["--user disable --now openclaw-gateway.service", "--user daemon-reload"]);
    expect(fs.existsSync(service.unit)).toBe(false);
    expect(result.stdout).toContain(`Stopped the gateway service and removed ${service.unit}`);
    expect(result.stdout).toContain("app: not applicable (this gateway has no macOS app)");
    expect(fs.readdirSync(path.join(home.trash, "files")).sort()).toEqual([".openclaw", "agent-workspace"]);
  });

  it("--state keeps a workspace inside the state dir; a dry run and a missing service change nothing", async () => {
    const home = makeHome();
    const inner = path.join(home.stateDir, "workspace");
    fs.writeFileSync(path.join(home.stateDir, "openclaw.json"), "{}");
    fs.mkdirSync(inner);
    fs.writeFileSync(path.join(inner, "MEMORY.md"), "remember\n");
    const dry = await openclaw(home, ["uninstall", "--service", "--state", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`service: not installed (no ${systemdUnitPath({ HOME: home.home })})`);
    expect(dry.stdout).toContain(`[dry-run] move to the Trash: ${path.join(home.stateDir, "credentials")} (state)`);
    expect(fs.existsSync(home.trash)).toBe(false);

    const result = await openclaw(home, ["uninstall", "--state", "--yes", "--non-interactive"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Kept ${inner}: it holds a workspace (add --workspace to move it too)`);
    expect(tree(home.stateDir)).toEqual(["workspace", "workspace/MEMORY.md"]);
    expect(fs.readdirSync(path.join(home.trash, "files")).sort()).toEqual(["agents", "credentials", "openclaw.json"]);
    expect(tree(home.workspace)).toEqual(["AGENTS.md"]);
  });

  it("a service that cannot be removed keeps the state; a running gateway keeps it too; each says why and exits 1", async () => {
    const home = makeHome();
    const service = installedService(home, true);
    const failed = await openclaw(home, ["uninstall", "--service", "--state", "--yes"], home.home, service.bin);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("service: systemctl --user disable --now openclaw-gateway.service failed (exit 1): Failed to disable unit: Access denied");
    expect(failed.stderr).toContain("state and workspaces kept: the gateway service could not be removed");
    expect(fs.existsSync(path.join(home.stateDir, "openclaw.json"))).toBe(true);
    expect(fs.existsSync(home.trash)).toBe(false);

    const gw = await startGateway({ stateDir: home.stateDir });
    try {
      const running = await openclaw(home, ["uninstall", "--state", "--yes"]);
      expect(running.code).toBe(1);
      expect(running.stderr).toContain(`state and workspaces kept: a gateway is running on ${home.stateDir} (pid ${gw.proc.pid}`);
      expect(fs.existsSync(path.join(home.stateDir, "openclaw.json"))).toBe(true);
      expect(fs.existsSync(home.trash)).toBe(false);
    } finally {
      await gw.stop();
    }
    const unasked = await openclaw(home, ["uninstall", "--yes", "--non-interactive"]);
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toContain("Non-interactive mode requires a scope: --service, --state, --workspace, --app or --all.");
  });
});
