import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSuite } from "../../../src/cli/eval/task-file.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder holding `suite/task.yaml` (with `taskYaml`) and `outside/secret.txt` beside the suite. */
function suiteWith(taskYaml: string): { suite: string; outside: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "eval-paths-"));
  dirs.push(base);
  const suite = path.join(base, "suite");
  const outside = path.join(base, "outside");
  fs.mkdirSync(path.join(suite, "fixtures", "ok"), { recursive: true });
  fs.writeFileSync(path.join(suite, "fixtures", "ok", "note.txt"), "inside");
  fs.writeFileSync(path.join(suite, "good.md"), "a good answer");
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "secret.txt"), "sk-not-for-the-judge");
  fs.writeFileSync(path.join(suite, "task.yaml"), `prompt: hi\n${taskYaml}`);
  return { suite, outside };
}

describe("the files an eval task names stay inside its suite", () => {
  it("loads a fixture folder and a reference file that are in the suite", () => {
    const { suite } = suiteWith("workspace: fixtures/ok\ngraders:\n  - compare: { rubric: r, referenceFile: good.md }\n");
    const [task] = loadSuite(suite);
    expect(task!.workspace).toBe(fs.realpathSync(path.join(suite, "fixtures", "ok")));
    expect(task!.graders).toEqual([{ compare: { rubric: "r", reference: "a good answer" } }]);
  });

  it("refuses a reference file or a fixture outside it, by .., an absolute path or a symlink", () => {
    const refused = /is outside the suite's folder .*; keep fixtures and reference answers in the suite/;
    expect(() => loadSuite(suiteWith("graders:\n  - compare: { rubric: r, referenceFile: ../outside/secret.txt }\n").suite)).toThrow(refused);
    const absolute = suiteWith("graders:\n  - contains: x\n");
    fs.writeFileSync(path.join(absolute.suite, "task.yaml"), `prompt: hi\nworkspace: ${absolute.outside}\ngraders:\n  - contains: x\n`);
    expect(() => loadSuite(absolute.suite)).toThrow(/workspace .* is outside the suite's folder/);
    const linked = suiteWith("graders:\n  - compare: { rubric: r, referenceFile: link.md }\n");
    fs.symlinkSync(path.join(linked.outside, "secret.txt"), path.join(linked.suite, "link.md"));
    expect(() => loadSuite(linked.suite)).toThrow(/referenceFile link\.md is outside the suite's folder/);
    const linkedFixture = suiteWith("workspace: fixtures/escape\ngraders:\n  - contains: x\n");
    fs.symlinkSync(linkedFixture.outside, path.join(linkedFixture.suite, "fixtures", "escape"));
    expect(() => loadSuite(linkedFixture.suite)).toThrow(/workspace fixtures\/escape is outside the suite's folder/);
  });

  it("names a fixture that is not there", () => {
    expect(() => loadSuite(suiteWith("workspace: fixtures/none\ngraders:\n  - contains: x\n").suite)).toThrow(
      /workspace fixtures\/none does not exist \(relative to the task file\)/,
    );
  });
});
