import { describe, expect, it } from "vitest";
import { DEFAULT_SAFE_BINS, commandPrograms, evaluateExecPolicy, type ExecPolicySettings } from "../../../src/agents/approvals/exec-policy.js";
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

describe("commandPrograms", () => {
  it("lists every program a line starts, or nothing when the line is uncertain", () => {
    expect(commandPrograms("echo hi & touch x | wc -l")).toEqual(["echo", "touch", "wc"]);
    expect(commandPrograms("echo $(touch x)")).toBeUndefined();
    expect(commandPrograms('echo "$(touch x)"')).toBeUndefined();
    expect(commandPrograms("FOO=1 echo hi")).toBeUndefined();
  });
});

describe("exec approval gate", () => {
  it("an allow-always grant for one program does not cover a line that chains another", async () => {
    const requested: string[] = [];
    const broker = new ExecApprovalBroker({ onRequested: (r) => requested.push(r.command) });
    const gate = createExecApprovalGate({ security: "allowlist", ask: "on-miss", allowlist: [], safeBins: [] }, broker, 200);
    const first = gate.check("echo hi", { agentId: "main" });
    await new Promise((r) => setTimeout(r, 10));
    broker.resolve(broker.list()[0]!.id, "allow-always");
    expect(await first).toEqual({ allowed: true });
    expect(await gate.check("echo other", { agentId: "main" })).toEqual({ allowed: true });
    const chained = await gate.check("echo hi & touch x", { agentId: "main" });
    expect(chained).toMatchObject({ allowed: false, reason: "no approval arrived in time; denied" });
    expect(requested).toEqual(["echo hi", "echo hi & touch x"]);
  });

  it("an allow-always grant never learns a safe bin or a program that runs code from its arguments (shell, interpreter, env, xargs)", async () => {
    const requested: string[] = [];
    const broker = new ExecApprovalBroker({ onRequested: (r) => requested.push(r.command) });
    const gate = createExecApprovalGate({ security: "allowlist", ask: "on-miss", allowlist: [], safeBins: DEFAULT_SAFE_BINS }, broker, 200);
    for (const line of ["git push | head -5", "bash build.sh", "python3.12 x.py && /usr/bin/node y.js", "env FOO=1 ls", "find . -name x | xargs wc -l"]) {
      const pending = gate.check(line, { agentId: "main" });
      await new Promise((r) => setTimeout(r, 10));
      broker.resolve(broker.list()[0]!.id, "allow-always");
      expect(await pending, line).toEqual({ allowed: true });
    }
    expect(broker.grantedPrograms("main")).toEqual(["git"]);
    expect(await gate.check("git status", { agentId: "main" })).toEqual({ allowed: true });
    for (const line of ["head /etc/passwd", "bash -c 'curl evil'", "python3 -c 1", "/usr/bin/node -e 1", "env curl evil", "xargs curl", "find . -delete"]) {
      expect(await gate.check(line, { agentId: "main" }), line).toMatchObject({ allowed: false, reason: "no approval arrived in time; denied" });
    }
  });

  it("an allow-always grant holds in the asking agent's later gates (turns), not in another agent's", async () => {
    const requested: string[] = [];
    const broker = new ExecApprovalBroker({ onRequested: (r) => requested.push(`${r.agentId}: ${r.command}`) });
    const first = createExecApprovalGate(allowlist("on-miss"), broker, 200).check("curl a", { agentId: "main" });
    await new Promise((r) => setTimeout(r, 10));
    broker.resolve(broker.list()[0]!.id, "allow-always");
    expect(await first).toEqual({ allowed: true });
    expect(await createExecApprovalGate(allowlist("on-miss"), broker, 200).check("curl b", { agentId: "main" })).toEqual({ allowed: true });
    const other = await createExecApprovalGate(allowlist("on-miss"), broker, 200).check("curl c", { agentId: "ops" });
    expect(other).toMatchObject({ allowed: false, reason: "no approval arrived in time; denied" });
    expect(requested).toEqual(["main: curl a", "ops: curl c"]);
  });

  it("denies an ask without a broker (embedded run)", async () => {
    const gate = createExecApprovalGate(allowlist("on-miss"));
    const d = await gate.check("curl x", { agentId: "main" });
    expect(d.allowed).toBe(false);
    expect(!d.allowed && d.reason).toMatch(/no approver is connected/);
  });

  it("asks the broker and follows the decision; allow-always is remembered; timeout denies", async () => {
    const requested: string[] = [];
    const broker = new ExecApprovalBroker({ onRequested: (r) => requested.push(r.id) });
    const gate = createExecApprovalGate(allowlist("on-miss"), broker, 200);

    const once = gate.check("curl a", { agentId: "main" });
    await new Promise((r) => setTimeout(r, 10));
    expect(broker.resolve(requested[0]!, "allow-once")).toBe(true);
    expect(await once).toEqual({ allowed: true });

    const always = gate.check("curl b", { agentId: "main" });
    await new Promise((r) => setTimeout(r, 10));
    broker.resolve(requested[1]!, "allow-always");
    expect(await always).toEqual({ allowed: true });
    expect(await gate.check("curl c", { agentId: "main" })).toEqual({ allowed: true });
    expect(requested).toHaveLength(2);

    const denied = gate.check("nc host", { agentId: "main" });
    await new Promise((r) => setTimeout(r, 10));
    broker.resolve(requested[2]!, "deny");
    expect(await denied).toMatchObject({ allowed: false, reason: "an operator denied this command" });

    const expired = await gate.check("ssh host", { agentId: "main" });
    expect(expired).toMatchObject({ allowed: false, reason: "no approval arrived in time; denied" });
    expect(broker.resolve(requested[3]!, "allow-once")).toBe(false);
  });
});
