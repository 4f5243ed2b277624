import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, runCli } from "../helpers/gateway-process.js";

/**
 * An ACP agent that cannot start (not logged in, a missing dependency) says why on stderr and
 * exits: `openclaw acp doctor`, through the same start-up as sessions_spawn, reports that exit
 * and those words rather than the broken pipe the gateway's first write ran into.
 */
describe("an ACP agent that exits at start", () => {
  it("is reported with its exit code and its stderr", async () => {
    const stateDir = makeTempDir();
    const dies = { command: "/bin/sh", args: ["-c", "echo 'Error: not logged in; run `claude login` first' >&2; exit 3"] };
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ acp: { enabled: true, agents: { dies } } }));
    const res = await runCli(["acp", "doctor"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(1);
    expect(res.output).toContain("FAIL dies: ACP agent `dies` exited with code 3 (stderr: Error: not logged in; run `claude login` first) during initialize.");
    expect(res.output).not.toContain("EPIPE");
  });

  it("a command path that exists but is not executable says so and how to fix it, not that it is missing from PATH", async () => {
    const stateDir = makeTempDir();
    const script = path.join(stateDir, "agent.sh");
    fs.writeFileSync(script, "#!/bin/sh\nexit 0\n", { mode: 0o644 });
    const missing = path.join(stateDir, "no-such-agent");
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ acp: { enabled: true, agents: { plain: { command: script }, gone: { command: missing } } } }));
    const res = await runCli(["acp", "doctor"], { OPENCLAW_STATE_DIR: stateDir });
    expect(res.code).toBe(1);
    expect(res.output).toContain(`FAIL plain: ACP agent \`plain\`: command not found (\`${script}\` is not executable: chmod +x it).`);
    expect(res.output).toContain(`FAIL gone: ACP agent \`gone\`: command not found (\`${missing}\` does not exist).`);
  });
});
