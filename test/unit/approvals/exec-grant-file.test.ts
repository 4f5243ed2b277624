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
});
