import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ExecGrantFile, execGrantsPath } from "../../../src/agents/approvals/exec-grant-file.js";

const tempStateDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "exec-grants-"));

describe("ExecGrantFile", () => {
  it("saves each new grant (0600) and a new gateway's file reads them back; a grant held already is not added twice", () => {
    const file = execGrantsPath(tempStateDir());
    const grants = new ExecGrantFile(file);
    grants.add("main", [{ argv: ["git", "push"], cwd: "/ws" }]);
    grants.add("main", [
      { argv: ["git", "push"], cwd: "/ws" },
      { argv: ["git", "push"], cwd: "/other" },
    ]);
    grants.add("ops", [{ argv: ["make"], cwd: "/ops" }]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const reread = new ExecGrantFile(file);
    expect(reread.grants("main").map(({ argv, cwd }) => ({ argv, cwd }))).toEqual([
      { argv: ["git", "push"], cwd: "/ws" },
      { argv: ["git", "push"], cwd: "/other" },
    ]);
    expect(reread.grants("ops")).toEqual([{ argv: ["make"], cwd: "/ops", grantedAt: expect.any(Number) }]);
    expect(reread.grants("nobody")).toEqual([]);
  });

  it("never writes over a file that is not valid JSON: its grants do not apply, new ones hold in memory, and the warning says where it breaks", () => {
    const file = execGrantsPath(tempStateDir());
    fs.writeFileSync(file, '{ "version": 1, "agents": { "main": [ } }');
    const warnings: string[] = [];
    const grants = new ExecGrantFile(file, (m) => warnings.push(m));
    expect(grants.grants("main")).toEqual([]);
    grants.add("main", [{ argv: ["ls"], cwd: "/ws" }]);
    expect(grants.grants("main")).toHaveLength(1);
    expect(fs.readFileSync(file, "utf8")).toBe('{ "version": 1, "agents": { "main": [ } }');
    expect(warnings).toEqual([
      `${file} is not valid JSON (line 1, column 39: invalid character '}'): its allow-always grants do not apply and new ones hold until the gateway stops; fix or remove it`,
    ]);
  });

  it("skips an entry without argv words or an absolute cwd, saying how many", () => {
    const file = execGrantsPath(tempStateDir());
    const good = { argv: ["ls", "-la"], cwd: "/ws", grantedAt: 1 };
    fs.writeFileSync(file, JSON.stringify({ version: 1, agents: { main: [good, { argv: [], cwd: "/ws", grantedAt: 1 }, { argv: ["ls"], cwd: "ws", grantedAt: 1 }] } }));
    const warnings: string[] = [];
    expect(new ExecGrantFile(file, (m) => warnings.push(m)).grants("main")).toEqual([good]);
    expect(warnings).toEqual([`${file}: 2 grant(s) of agent "main" skipped (each needs argv, a list of words, and cwd, an absolute directory)`]);
  });

  it("revoke takes grants back on disk first: a new gateway's file no longer has them, and an agent left with none goes", () => {
    const file = execGrantsPath(tempStateDir());
    const grants = new ExecGrantFile(file);
    grants.add("main", [
      { argv: ["ls", "-a"], cwd: "/ws" },
      { argv: ["ls", "-l"], cwd: "/ws" },
    ]);
    grants.add("ops", [{ argv: ["make"], cwd: "/ops" }]);
    expect(grants.revoke((agentId, grant) => agentId === "main" && grant.argv[1] === "-l")).toBe(2);
    expect(grants.grants("main").map((g) => g.argv)).toEqual([["ls", "-l"]]);
    expect(grants.grants("ops")).toEqual([]);
    const reread = new ExecGrantFile(file);
    expect(reread.grants("main").map((g) => g.argv)).toEqual([["ls", "-l"]]);
    expect([...reread.all().keys()]).toEqual(["main"]);
    expect(grants.revoke(() => true)).toBe(0);
  });

  it("a revoke whose file cannot be written throws and takes nothing back", () => {
    const stateDir = tempStateDir();
    const file = execGrantsPath(stateDir);
    const grants = new ExecGrantFile(file);
    grants.add("main", [{ argv: ["ls"], cwd: "/ws" }]);
    fs.rmSync(stateDir, { recursive: true });
    expect(() => grants.revoke(() => false)).toThrow(/ENOENT/);
    expect(grants.grants("main")).toHaveLength(1);
  });

  it("with a file that was not valid JSON, revoke takes back the grants made since from memory and leaves the file as it is", () => {
    const file = execGrantsPath(tempStateDir());
    fs.writeFileSync(file, "{ broken");
    const grants = new ExecGrantFile(file);
    grants.add("main", [{ argv: ["ls"], cwd: "/ws" }]);
    expect(grants.revoke(() => false)).toBe(1);
    expect(grants.grants("main")).toEqual([]);
    expect(fs.readFileSync(file, "utf8")).toBe("{ broken");
  });
});
