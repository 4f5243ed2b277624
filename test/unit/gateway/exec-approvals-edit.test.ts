import { describe, expect, it } from "vitest";
import { planApprovalsEdit } from "../../../src/gateway/methods/exec-approvals-edit.js";
import { execApprovalsSnapshot } from "../../../src/gateway/methods/exec-approvals-snapshot.js";

const policy = { security: "allowlist" as const, ask: "on-miss" as const, allowlist: ["git"], safeBins: [] };
const grants = new Map([
  [
    "main",
    [
      { argv: ["ls", "-a"], cwd: "/ws", grantedAt: 1 },
      { argv: ["ls", "-l"], cwd: "/ws", grantedAt: 2 },
      { argv: ["make", "x"], cwd: "/tmp", grantedAt: 3 },
    ],
  ],
  ["ops", [{ argv: ["uptime"], cwd: "/ops", grantedAt: 4 }]],
]);
const current = () => execApprovalsSnapshot(policy, grants, { configFile: "/state/openclaw.json", setsToolsExec: true }).file;
const keptArgv = (edit: ReturnType<typeof planApprovalsEdit>) =>
  "kept" in edit ? Object.fromEntries([...edit.kept].map(([id, list]) => [id, list.map((g) => g.argv.join(" "))])) : edit.refused;

describe("planApprovalsEdit (exec.approvals.set)", () => {
  it("the file sent back unchanged keeps every grant", () => {
    expect(keptArgv(planApprovalsEdit(current(), current(), "openclaw.json"))).toEqual({ main: ["ls -a", "ls -l", "make x"], ops: ["uptime"] });
  });

  it("what `openclaw approvals allowlist remove ls --agent main` sends (every ls entry of main left out) keeps the rest; an agent left out keeps none", () => {
    const file = current();
    file.agents.main!.allowlist = file.agents.main!.allowlist.filter((entry) => entry.pattern !== "ls");
    delete (file.agents as Record<string, unknown>).ops;
    expect(keptArgv(planApprovalsEdit(file, current(), "openclaw.json"))).toEqual({ main: ["make x"] });
  });

  it("refuses a file that changes the policy, naming the config key where it is changed", () => {
    const changedDefaults = { ...current(), defaults: { security: "full", ask: "off", askFallback: "deny" } };
    const withoutStar = current();
    delete (withoutStar.agents as Record<string, unknown>)["*"];
    const agentSetting = current();
    (agentSetting.agents.main as Record<string, unknown>).security = "full";
    for (const file of [changedDefaults, withoutStar, agentSetting, { ...current(), version: 2 }]) {
      expect(keptArgv(planApprovalsEdit(file, current(), "openclaw.json"))).toMatch(
        /^not supported: the exec policy \(defaults, the "\*" allowlist, per-agent settings\) is tools\.exec in openclaw\.json; change it there/,
      );
    }
  });

  it("refuses an entry that is not one of the agent's grants: only an allow-always answer makes one", () => {
    const added = current();
    added.agents.main!.allowlist.push({ pattern: "/usr/bin/rg" });
    expect(keptArgv(planApprovalsEdit(added, current(), "openclaw.json"))).toBe(
      'not supported: /usr/bin/rg is not an allow-always grant of agent "main": grants are made by answering allow-always; to allow a program for every agent, add it to tools.exec.allowlist in openclaw.json',
    );
    const moved = current();
    moved.agents.ops = { allowlist: [current().agents.main!.allowlist[0]!] };
    expect(keptArgv(planApprovalsEdit(moved, current(), "openclaw.json"))).toMatch(/^not supported: ls is not an allow-always grant of agent "ops"/);
  });

  it("refuses what is not a file", () => {
    for (const file of [undefined, null, "x", []]) expect(keptArgv(planApprovalsEdit(file, current(), "openclaw.json"))).toBe("exec approvals file is required");
  });
});
