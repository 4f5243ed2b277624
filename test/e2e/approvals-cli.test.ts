import path from "node:path";
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { ASK_ON_MISS, reportRunModel } from "../helpers/exec-approval-chat.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { runCli } from "../helpers/gateway-process.js";
import { messagesOf } from "../helpers/model-request.js";
import { chatRequests } from "../helpers/reliability.js";

/**
 * `openclaw approvals` against a real gateway whose exec asks on a miss of the `echo` allowlist:
 * the fake model has the agent run `printf approved-output`, which waits on an approval the CLI
 * lists and answers; `get` shows the policy and the grants an allow-always answer makes.
 */

const fixture = useFakeModelGateway({ extra: () => ASK_ON_MISS, operator: true });
beforeEach(() => fixture.model.setResponder(reportRunModel));

const env = () => ({ OPENCLAW_STATE_DIR: fixture.stateDir, OPENCLAW_GATEWAY_TOKEN: fixture.gw.token });
const cli = (...args: string[]) => runCli(["approvals", ...args], env());

/** Starts a turn whose `exec` waits on an approval; resolves with the approval and the turn's end. */
async function askingTurn() {
  const { sock } = fixture;
  const sessionKey = `agent:main:${randomUUID()}`;
  const sent = await sock.request("agent", { message: "please run the report", agentId: "main", sessionKey, idempotencyKey: randomUUID() });
  const asked = await sock.waitFor((f) => f.event === "exec.approval.requested" && f.payload.request.sessionKey === sessionKey, 20_000);
  const done = sock.waitFor((f) => f.type === "res" && f.id === sent.id && f.payload?.status !== "accepted", 20_000);
  return { id: asked.payload.id as string, cwd: asked.payload.request.cwd as string, sessionKey, done };
}

/** What the `exec` call answered the model in the latest turn. */
function lastToolResult(): string {
  return JSON.stringify(messagesOf(chatRequests(fixture.model).at(-1)!).find((m) => m.role === "tool")?.content);
}

describe("openclaw approvals pending | resolve", { timeout: 60_000 }, () => {
  it("pending lists the approval a turn waits on; resolve deny answers it, with the --reason note, and the turn goes on without the command", async () => {
    const { id, cwd, sessionKey, done } = await askingTurn();

    const text = await cli("pending");
    expect(text.code).toBe(0);
    const lines = text.output.split("\n");
    expect(lines[0]).toBe("Pending approvals (1)");
    expect(lines[1]).toMatch(/^ID +Kind +Agent \/ Session +Requested +Expires In +Directory +Command$/);
    expect(lines[2]).toMatch(new RegExp(`^${id} +exec +main / ${sessionKey} +(just now|\\d+m ago) +\\d+m +${cwd} +printf approved-output$`));
    expect(text.output).toContain("Answer with `openclaw approvals resolve <id> allow-once|allow-always|deny`.");

    const json = await cli("pending", "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.output)).toEqual({
      approvals: [{ id, kind: "exec", agentId: "main", sessionKey, createdAtMs: expect.any(Number), expiresAtMs: expect.any(Number), summary: "printf approved-output", cwd }],
    });
    // OpenClaw's alias names the same command.
    expect(JSON.parse((await runCli(["exec-approvals", "pending", "--json"], env())).output).approvals.map((a: { id: string }) => a.id)).toEqual([id]);

    const resolved = await cli("resolve", id, "deny", "--reason", "not during the freeze");
    expect(resolved.code).toBe(0);
    expect(resolved.output).toBe(`Approval ${id} resolved deny by runtime:cli; CLI reason: not during the freeze.\n`);
    expect((await done).payload.status).toBe("ok");
    expect(lastToolResult()).not.toContain("approved-output");
    expect(lastToolResult()).toContain("denied");

    const again = await cli("resolve", id, "deny");
    expect(again.code).toBe(0);
    expect(again.output).toBe(`Approval ${id} already resolved (same decision: deny) by runtime:cli.\n`);
    const againJson = JSON.parse((await cli("resolve", id, "deny", "--json")).output);
    expect(againJson).toMatchObject({ applied: false, alreadyResolved: true, approval: { id, status: "denied", decision: "deny", resolver: { kind: "runtime", id: "cli" } } });
    expect(againJson).not.toHaveProperty("cliReason");

    const other = await cli("resolve", id, "allow-once");
    expect(other.code).toBe(1);
    expect(other.output).toBe(`openclaw: Approval ${id} was already resolved with deny by runtime:cli.\n`);

    expect((await cli("pending")).output).toBe("No pending approvals.\n");
    expect(JSON.parse((await cli("pending", "--json")).output)).toEqual({ approvals: [] });
  });

  it("resolve --json prints the answered approval; an approval nobody answered in time is expired", async () => {
    const { id, done } = await askingTurn();
    const json = await cli("resolve", id, "allow-once", "--json", "--reason", "checked");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.output)).toMatchObject({
      applied: true,
      alreadyResolved: false,
      cliReason: "checked",
      approval: { id, status: "allowed", decision: "allow-once", presentation: { kind: "exec", commandText: "printf approved-output" } },
    });
    expect((await done).payload.status).toBe("ok");
    expect(lastToolResult()).toContain("approved-output");

    const { sock } = fixture;
    const asked = await sock.request("exec.approval.request", { command: "curl https://example.com", agentId: "main", timeoutMs: 1 });
    await sock.waitFor((f) => f.event === "exec.approval.resolved" && f.payload.id === asked.payload.id && f.payload.decision === null);
    const expired = await cli("resolve", asked.payload.id, "allow-once");
    expect(expired.code).toBe(1);
    expect(expired.output).toMatch(new RegExp(`^openclaw: Approval ${asked.payload.id} expired\\. Nobody answered in time`));
  });

  it("an unknown id is named with where to find the pending ones; a decision it does not take is refused before connecting", async () => {
    const unknown = await cli("resolve", "no-such-approval", "deny");
    expect(unknown.code).toBe(1);
    expect(unknown.output).toBe(
      "openclaw: no approval with id no-such-approval on this gateway (it keeps the pending ones and the last 200 answered); see the waiting ones with `openclaw approvals pending`\n",
    );
    const unknownJson = await cli("resolve", "no-such-approval", "deny", "--json");
    expect(unknownJson.code).toBe(1);
    expect(JSON.parse(unknownJson.output)).toEqual({ ok: false, error: { type: "cli_error", message: expect.stringContaining("no approval with id no-such-approval") } });

    const bad = await cli("resolve", "no-such-approval", "maybe");
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain("command-argument value 'maybe' is invalid for argument 'decision'. Allowed choices are allow-once, allow-always, deny.");
    const emptyReason = await cli("resolve", "no-such-approval", "deny", "--reason", " ");
    expect(emptyReason.code).toBe(1);
    expect(emptyReason.output).toBe("openclaw: --reason: expected a note, got an empty one\n");
  });
});

describe("openclaw approvals get | allowlist remove", { timeout: 60_000 }, () => {
  it("get shows the policy and an allow-always grant (text and --json); allowlist remove takes the grant back", async () => {
    const { id, cwd, done } = await askingTurn();
    expect((await cli("resolve", id, "allow-always")).output).toBe(`Approval ${id} resolved allow-always by runtime:cli.\n`);
    expect((await done).payload.status).toBe("ok");

    const configFile = path.join(fixture.stateDir, "openclaw.json");
    const json = await cli("get", "--json");
    expect(json.code).toBe(0);
    const grant = {
      pattern: "printf",
      argPattern: expect.stringMatching(/^sha256:cwd-argv:v1:[0-9a-f]{64}$/),
      argv: ["printf", "approved-output"],
      cwd,
      source: "allow-always",
      addedAt: expect.any(Number),
    };
    const snapshot = JSON.parse(json.output);
    expect(snapshot).toEqual({
      path: configFile,
      exists: true,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      file: {
        version: 1,
        defaults: { security: "allowlist", ask: "on-miss", askFallback: "deny" },
        agents: { "*": { allowlist: [{ pattern: "echo" }] }, main: { allowlist: [grant] } },
      },
    });

    const text = await cli("get");
    expect(text.code).toBe(0);
    expect(text.output).toContain("Exec approvals (the gateway's policy)\n");
    expect(text.output).toMatch(new RegExp(`^ {2}Path +${configFile}$`, "m"));
    expect(text.output).toMatch(/^ {2}State +tools\.exec is set there$/m);
    expect(text.output).toMatch(/^ {2}Defaults +security=allowlist, ask=on-miss, askFallback=deny$/m);
    expect(text.output).toMatch(/^ {2}Allowlist +2$/m);
    expect(text.output).toMatch(/^ {2}Agent +Pattern +Scope +Command +Directory +Source$/m);
    expect(text.output).toMatch(/^ {2}\* +echo +any args +- +- +tools\.exec\.allowlist$/m);
    expect(text.output).toMatch(new RegExp(`^ {2}main +printf +argv\\+cwd +printf approved-output +${cwd} +allow-always \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`, "m"));
    expect(text.output).toContain("tools.exec in openclaw.json. Change it with `openclaw config set tools.exec.<key> <value>`");

    // The shared allowlist is the config's: refused with the line that changes it.
    const shared = await cli("allowlist", "remove", "echo");
    expect(shared.code).toBe(1);
    expect(shared.output).toContain("openclaw: not supported: echo is in tools.exec.allowlist in openclaw.json");
    expect(shared.output).toContain("`openclaw config set tools.exec.allowlist '[]'`");
    const notShared = await cli("allowlist", "remove", "printf");
    expect(notShared.code).toBe(0);
    expect(notShared.output).toBe("Pattern not found: printf is not in tools.exec.allowlist; agent main holds allow-always grants of it: add --agent <id>; nothing changed.\n");
    const nobody = await cli("allowlist", "remove", "printf", "--agent", "nobody");
    expect(nobody.code).toBe(1);
    expect(nobody.output).toBe('openclaw: unknown agent "nobody": agents here are main\n');

    const removed = await cli("allowlist", "remove", "printf", "--agent", "main");
    expect(removed.code).toBe(0);
    expect(removed.output).toBe(`Took back 1 allow-always grant of printf from agent main; it asks again:\n  printf approved-output  (in ${cwd})\n`);
    expect(JSON.parse((await cli("get", "--json")).output).file.agents).toEqual({ "*": { allowlist: [{ pattern: "echo" }] } });
    const nothing = await cli("allowlist", "remove", "printf", "--agent", "main", "--json");
    expect(nothing.code).toBe(0);
    expect(JSON.parse(nothing.output).file.agents).toEqual({ "*": { allowlist: [{ pattern: "echo" }] } });

    // Taken back: the same command asks again.
    const next = await askingTurn();
    expect((await cli("resolve", next.id, "deny")).code).toBe(0);
    expect((await next.done).payload.status).toBe("ok");
  });
});
