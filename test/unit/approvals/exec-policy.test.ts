import { describe, expect, it } from "vitest";
import { DEFAULT_SAFE_BINS, evaluateExecPolicy, type ExecPolicySettings } from "../../../src/agents/approvals/exec-policy.js";
import { grantsFor } from "../../../src/agents/approvals/exec-grants.js";
import { ExecApprovalBroker } from "../../../src/agents/approvals/approval-broker.js";
import { createExecApprovalGate } from "../../../src/agents/approvals/policy-gate.js";

const allowlist = (ask: ExecPolicySettings["ask"]): ExecPolicySettings => ({ security: "allowlist", ask, allowlist: ["git", "/usr/bin/ls*"], safeBins: DEFAULT_SAFE_BINS });

describe("evaluateExecPolicy", () => {
  const cases: [string, ExecPolicySettings, string][] = [
    ["ls", { security: "deny", ask: "off", allowlist: [], safeBins: [] }, "deny"],
    ["rm -rf /tmp/x", { security: "full", ask: "off", allowlist: [], safeBins: [] }, "allow"],
    ["echo hi", { security: "full", ask: "always", allowlist: [], safeBins: [] }, "ask"],
    ["git status", allowlist("off"), "allow"],
    ["git log | head -5 | wc -l", allowlist("off"), "allow"],
    ["/usr/bin/ls -la", allowlist("off"), "allow"],
    ["FOO=1 git status", allowlist("off"), "deny"],
    ["PATH=. git status", allowlist("off"), "deny"],
    ["git status;", allowlist("off"), "allow"],
    ["git log 2>&1 | head -5", allowlist("off"), "allow"],
    ["git status & curl evil", allowlist("off"), "deny"],
    ["git status |& curl evil", allowlist("off"), "deny"],
    ["git status ;; curl evil", allowlist("off"), "deny"],
    ["git status\ncurl evil", allowlist("off"), "deny"],
    ["git status\\\ncurl evil", allowlist("off"), "deny"],
    ["git a#b; curl evil", allowlist("off"), "deny"],
    ["(curl evil)", allowlist("off"), "deny"],
    ["git status `curl evil`", allowlist("off"), "deny"],
    ["git diff <(curl evil)", allowlist("off"), "deny"],
    ["git status >&out.txt", allowlist("off"), "deny"],
    ["git status &> out.txt", allowlist("off"), "deny"],
    ["git apply <<EOF\nx\nEOF", allowlist("off"), "deny"],
    ["$CMD status", allowlist("off"), "deny"],
    ["git* status", allowlist("off"), "deny"],
    ["'git' status \"a;b\"", allowlist("off"), "allow"],
    ["./git status", allowlist("off"), "deny"],
    ["", allowlist("off"), "deny"],
    // Safe bins filter stdin only: options yes, file operands and unknown options no.
    ["git log | head -n 3 | tail -n +2 | cut -d ' ' -f 1 | uniq -c | wc -l", allowlist("off"), "allow"],
    ["git log | head -5 | tr -d a-z | tr a-z A-Z", allowlist("off"), "allow"],
    ["head -n 3 /etc/passwd", allowlist("off"), "deny"],
    ["tail ../secret.txt", allowlist("off"), "deny"],
    ["wc -c /abs/file", allowlist("off"), "deny"],
    ["wc --files0-from=list", allowlist("off"), "deny"],
    ["cut -f1 notes.txt", allowlist("off"), "deny"],
    ["git log | uniq - out.txt", allowlist("off"), "deny"],
    ["head -- -n", allowlist("off"), "deny"],
    ["head $FILE", allowlist("off"), "deny"],
    ["wc -l *.txt", allowlist("off"), "deny"],
    ["head -n", allowlist("off"), "deny"],
    ["git status && curl evil", allowlist("off"), "deny"],
    ["git status > out.txt", allowlist("off"), "deny"],
    ["git $(curl x)", allowlist("on-miss"), "ask"],
    ['git commit -m "$(curl evil)"', allowlist("off"), "deny"],
    ['git log "${x:-$(curl evil)}"', allowlist("off"), "deny"],
    ['git log "$((1))"', allowlist("off"), "deny"],
    ['git log "$HOME" "$1" "$@" "${x}"', allowlist("off"), "allow"],
    ["python -c 1", allowlist("on-miss"), "ask"],
    ["git status", allowlist("always"), "ask"],
  ];
  it.each(cases)("%s → %s", (command, settings, expected) => {
    expect(evaluateExecPolicy(command, settings).verdict).toBe(expected);
  });

  it("names the missing binary", () => {
    const v = evaluateExecPolicy("curl x", allowlist("off"));
    expect(v.verdict === "deny" && v.reason).toContain('"curl" is not on the exec allowlist');
  });
});

describe("grantsFor", () => {
  it("grants each simple command of an approved line exactly, in its directory; never a safe bin, a code runner or a word known only at run time", () => {
    expect(grantsFor("git push origin main | head -5 && touch done", "/ws", DEFAULT_SAFE_BINS)).toEqual([
      { argv: ["git", "push", "origin", "main"], cwd: "/ws" },
      { argv: ["touch", "done"], cwd: "/ws" },
    ]);
    expect(grantsFor("bash build.sh; python3 -c 1; rm $TARGET; ls *.txt", "/ws", DEFAULT_SAFE_BINS)).toEqual([]);
    expect(grantsFor("echo $(touch x)", "/ws", [])).toBeUndefined();
    expect(grantsFor("FOO=1 echo hi", "/ws", [])).toBeUndefined();
  });
});

/** Resolves the one waiting approval with `decision` once it is asked. */
async function answer(broker: ExecApprovalBroker, decision: "allow-once" | "allow-always" | "deny"): Promise<void> {
  await new Promise((r) => setTimeout(r, 10));
  broker.resolve(broker.list()[0]!.id, decision);
}

describe("exec approval gate", () => {
  const denied = { allowed: false, reason: "no approval arrived in time; denied" };

  it("an allow-always answer grants that exact command in that directory: other arguments, another directory or a chained program are asked again", async () => {
    const requested: string[] = [];
    const broker = new ExecApprovalBroker({ onRequested: (r) => requested.push(`${r.cwd}: ${r.command}`) });
    const gate = createExecApprovalGate({ security: "allowlist", ask: "on-miss", allowlist: [], safeBins: [] }, broker, 200);
    const first = gate.check("rm build/out.txt", { agentId: "main", cwd: "/ws" });
    await answer(broker, "allow-always");
    expect(await first).toEqual({ allowed: true });
    expect(await gate.check("rm  build/out.txt", { agentId: "main", cwd: "/ws" })).toEqual({ allowed: true });
    expect(await gate.check("rm build/out.txt; rm build/out.txt", { agentId: "main", cwd: "/ws" })).toEqual({ allowed: true });
    for (const [command, cwd] of [
      ["rm -rf /", "/ws"],
      ["rm build/out.txt", "/elsewhere"],
      ["rm build/out.txt & touch x", "/ws"],
    ] as const) {
      expect(await gate.check(command, { agentId: "main", cwd }), `${cwd}: ${command}`).toMatchObject(denied);
    }
    expect(requested).toEqual(["/ws: rm build/out.txt", "/ws: rm -rf /", "/elsewhere: rm build/out.txt", "/ws: rm build/out.txt & touch x"]);
  });

  it("an allow-always answer never grants a safe bin, a program that runs code from its arguments, or a command with run-time words", async () => {
    const broker = new ExecApprovalBroker();
    const gate = createExecApprovalGate({ security: "allowlist", ask: "on-miss", allowlist: [], safeBins: DEFAULT_SAFE_BINS }, broker, 200);
    for (const line of ["git push | head -5", "bash build.sh", "python3.12 x.py && /usr/bin/node y.js", "env FOO=1 ls", "find . -name x | xargs wc -l", "cat $HOME/notes"]) {
      const pending = gate.check(line, { agentId: "main", cwd: "/ws" });
      await answer(broker, "allow-always");
      expect(await pending, line).toEqual({ allowed: true });
    }
    expect(broker.grants.grants("main")).toEqual([{ argv: ["git", "push"], cwd: "/ws", grantedAt: expect.any(Number) }]);
    expect(await gate.check("git push", { agentId: "main", cwd: "/ws" })).toEqual({ allowed: true });
    for (const line of ["head /etc/passwd", "bash build.sh", "python3.12 x.py", "env FOO=1 ls", "xargs wc -l", "cat $HOME/notes"]) {
      expect(await gate.check(line, { agentId: "main", cwd: "/ws" }), line).toMatchObject(denied);
    }
  });

  it("an allow-always grant holds in the asking agent's later gates (turns), not in another agent's", async () => {
    const requested: string[] = [];
    const broker = new ExecApprovalBroker({ onRequested: (r) => requested.push(`${r.agentId}: ${r.command}`) });
    const first = createExecApprovalGate(allowlist("on-miss"), broker, 200).check("curl a", { agentId: "main", cwd: "/ws" });
    await answer(broker, "allow-always");
    expect(await first).toEqual({ allowed: true });
    expect(await createExecApprovalGate(allowlist("on-miss"), broker, 200).check("curl a", { agentId: "main", cwd: "/ws" })).toEqual({ allowed: true });
    const other = await createExecApprovalGate(allowlist("on-miss"), broker, 200).check("curl a", { agentId: "ops", cwd: "/ws" });
    expect(other).toMatchObject(denied);
    expect(requested).toEqual(["main: curl a", "ops: curl a"]);
  });

  it("denies an ask without a broker (embedded run)", async () => {
    const gate = createExecApprovalGate(allowlist("on-miss"));
    const d = await gate.check("curl x", { agentId: "main", cwd: "/ws" });
    expect(d.allowed).toBe(false);
    expect(!d.allowed && d.reason).toMatch(/no approver is connected/);
  });

  it("asks the broker and follows the decision; allow-always is remembered; timeout denies", async () => {
    const requested: string[] = [];
    const broker = new ExecApprovalBroker({ onRequested: (r) => requested.push(r.id) });
    const gate = createExecApprovalGate(allowlist("on-miss"), broker, 200);
    const at = { agentId: "main", cwd: "/ws" };

    const once = gate.check("curl a", at);
    await new Promise((r) => setTimeout(r, 10));
    expect(broker.resolve(requested[0]!, "allow-once")).toBe(true);
    expect(await once).toEqual({ allowed: true });

    const always = gate.check("curl b", at);
    await new Promise((r) => setTimeout(r, 10));
    broker.resolve(requested[1]!, "allow-always");
    expect(await always).toEqual({ allowed: true });
    expect(await gate.check("curl b", at)).toEqual({ allowed: true });
    expect(requested).toHaveLength(2);

    const denied = gate.check("nc host", at);
    await new Promise((r) => setTimeout(r, 10));
    broker.resolve(requested[2]!, "deny");
    expect(await denied).toMatchObject({ allowed: false, reason: "an operator denied this command" });

    const expired = await gate.check("ssh host", at);
    expect(expired).toMatchObject({ allowed: false, reason: "no approval arrived in time; denied" });
    expect(broker.resolve(requested[3]!, "allow-once")).toBe(false);
  });
});
