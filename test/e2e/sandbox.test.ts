import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/gateway-process.js";
import { chatRequests, requestMessages } from "../helpers/reliability.js";
import { useRpcGateway } from "../helpers/rpc-gateway.js";

/**
 * `agents.defaults.sandbox` in a real gateway: with mode non-main, the agent's main session runs
 * exec on the host and every other session in bubblewrap (no network, only the workspace);
 * `openclaw sandbox explain` says which and why.
 */

const TOKEN = "sandbox-token";
const PROBE =
  "echo IFACES=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ,) STATE=$(ls $OPENCLAW_PROBE_STATE/openclaw.json 2>&1) SKILL_ENV=$DEMO_SKILL_REGION.";

/** A workspace skill whose entry gives its commands DEMO_SKILL_REGION: on the host only. */
function withDemoSkill(config: Record<string, any>): void {
  const dir = path.join(config.agents.defaults.workspace, "skills", "demo-skill");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), "---\nname: demo-skill\ndescription: Use when the demo is asked for.\n---\nSteps.\n");
  config.skills = { entries: { "demo-skill": { env: { DEMO_SKILL_REGION: "eu-test" } } } };
}

const fixture = useRpcGateway(TOKEN, { agentDefaults: { sandbox: { mode: "non-main", backend: "bwrap", workspaceAccess: "rw" } }, configure: withDemoSkill });

/** One turn whose model runs the probe through exec; returns the tool result the model saw. */
async function probe(sessionKey: string, id: string): Promise<string> {
  fixture.server.enqueue({ toolCalls: [{ id: `call_${id}`, name: "exec", arguments: { command: PROBE.replace("$OPENCLAW_PROBE_STATE", fixture.stateDir) } }] }, { text: "probed" });
  const sent = await fixture.rpc.request("chat.send", { sessionKey, message: "probe", idempotencyKey: id });
  expect(sent.ok, JSON.stringify(sent.error)).toBe(true);
  const waited = await fixture.rpc.request("agent.wait", { runId: id, timeoutMs: 30_000 }, 35_000);
  expect(waited.payload.status).toBe("ok");
  const followUp = chatRequests(fixture.server).at(-1)!;
  return requestMessages(followUp)
    .filter((m) => m.role === "tool")
    .map((m) => m.text)
    .join("\n");
}

describe("the exec sandbox in a running gateway", () => {
  it("non-main: the main session runs on the host, another session in bubblewrap without network or state dir", async () => {
    const host = await probe("agent:main:main", "sbx-main");
    expect(/IFACES=(\S*)/.exec(host)![1]!.split(",").filter(Boolean).length).toBeGreaterThan(1);
    expect(host).toContain(`STATE=${fixture.stateDir}/openclaw.json`);
    expect(host).toContain("SKILL_ENV=eu-test.");

    const boxed = await probe("agent:main:other", "sbx-other");
    expect(/IFACES=(\S*)/.exec(boxed)![1]).toBe("lo,");
    expect(boxed).toMatch(/STATE=ls: cannot access .*openclaw\.json.*No such file or directory/);
    expect(boxed).toContain("SKILL_ENV=.");
  });

  it("openclaw sandbox explain says what a session gets", async () => {
    const env = { OPENCLAW_STATE_DIR: fixture.stateDir };
    const other = await runCli(["sandbox", "explain", "--session", "agent:main:other", "--json"], env);
    expect(other.code).toBe(0);
    const parsed = JSON.parse(other.output);
    expect(parsed).toMatchObject({ agentId: "main", sandboxed: true, backend: "bwrap", backendInstalled: true, network: "none", writable: true, workspaceAccess: "rw" });
    expect(parsed.tools).toContain("exec");
    expect(parsed.tools).not.toContain("web_fetch");
    const main = await runCli(["sandbox", "explain"], env);
    expect(main.code).toBe(0);
    expect(main.output).toContain("sandboxed: no (sandbox.mode is non-main and this is the agent's main session)");
  });
});
