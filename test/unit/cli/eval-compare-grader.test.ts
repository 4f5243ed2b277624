import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { judgeAgents } from "../../../src/cli/eval/eval-runner.js";
import { grade, type Judges, type PairJudge } from "../../../src/cli/eval/graders.js";
import { loadTask } from "../../../src/cli/eval/task-file.js";

const REFERENCE = "Your name is Ada, as you told me.";
const output = (finalText: string) => ({ finalText, traces: [], workspaceDir: "/nowhere" });

/** A judge that prefers the answer `prefer` picks (A, B or TIE), and records the pairs it was shown. */
function judgeWith(prefer: (a: string, b: string) => "A" | "B" | "TIE" | undefined): { judges: Judges; shown: [string, string][] } {
  const shown: [string, string][] = [];
  const compare: PairJudge = async (_rubric, [a, b]) => {
    shown.push([a, b]);
    const choice = prefer(a, b);
    return choice ? { choice, reason: `${choice} it is` } : { reason: "the judge gave no A/B/TIE verdict" };
  };
  const rubric = async () => ({ pass: false, reason: "no rubric grader in these tasks" });
  return { judges: { rubric, compare }, shown };
}

const byLength = (a: string, b: string) => (a.length === b.length ? "TIE" : a.length > b.length ? "A" : "B");
const grader = { compare: { rubric: "Tells the user their name.", reference: REFERENCE } };
const label = 'compare "Tells the user their name." with the reference';

describe("the compare grader", () => {
  it("shows the judge the reply and the reference in both orders, and passes when the reply is at least as good each time", async () => {
    const better = judgeWith(byLength);
    const reply = `${REFERENCE} Nice to meet you, Ada.`;
    expect(await grade([grader], output(reply), better.judges)).toEqual([{ grader: label, pass: true }]);
    expect(better.shown).toEqual([
      [reply, REFERENCE],
      [REFERENCE, reply],
    ]);
    expect(await grade([grader], output(REFERENCE.toUpperCase()), judgeWith(byLength).judges)).toEqual([{ grader: label, pass: true }]);
  });

  it("fails a worse reply, saying how it fared in each order", async () => {
    const [worse] = await grade([grader], output("Ada."), judgeWith(byLength).judges);
    expect(worse).toEqual({ grader: label, pass: false, detail: "the reply as A: worse (B it is); the reply as B: worse (A it is)" });
  });

  it("fails when the judge's choice followed the position, or it gave no verdict", async () => {
    const [positional] = await grade([grader], output("Your name is Ada."), judgeWith(() => "A").judges);
    expect(positional).toEqual({
      grader: label,
      pass: false,
      detail: "the reply as A: better (A it is); the reply as B: worse (A it is); the judge chose A both times: its choice followed the position, not the answers",
    });
    const [silent] = await grade([grader], output("Your name is Ada."), judgeWith((a) => (a === REFERENCE ? undefined : "TIE")).judges);
    expect(silent).toEqual({ grader: label, pass: false, detail: "the reply as A: as good (TIE it is); the reply as B: no verdict (the judge gave no A/B/TIE verdict)" });
  });

  it("with judges, each compares in both orders on its own model, and more than half must find the reply at least as good", async () => {
    const asked: (string | undefined)[] = [];
    // a/fair prefers the longer answer, b/positional always says A, c/fair2 as a/fair.
    const compare: PairJudge = async (_rubric, [a, b], model) => {
      asked.push(model);
      const choice = model === "b/positional" ? "A" : byLength(a, b);
      return { choice, reason: `${choice} it is` };
    };
    const judges: Judges = { rubric: async () => ({ pass: false, reason: "unused" }), compare };
    const voted = { compare: { ...grader.compare, judges: ["a/fair", "b/positional", "c/fair2"] } };
    const reply = `${REFERENCE} Nice to meet you.`;
    expect(await grade([voted], output(reply), judges)).toEqual([{ grader: `${label} by 3 judges`, pass: true }]);
    expect(asked.sort()).toEqual(["a/fair", "a/fair", "b/positional", "b/positional", "c/fair2", "c/fair2"]);

    const [lost] = await grade([{ compare: { ...grader.compare, judges: ["a/fair", "b/positional"] } }], output("Ada."), judges);
    expect(lost).toMatchObject({ grader: `${label} by 2 judges`, pass: false });
    expect(lost!.detail).toBe(
      "0 of 2 judges find the reply at least as good: a/fair: FAIL (the reply as A: worse (B it is); the reply as B: worse (A it is)); " +
        "b/positional: FAIL (the reply as A: better (A it is); the reply as B: worse (A it is); the judge chose A both times: its choice followed the position, not the answers)",
    );
  });

  it("gives a compare grader's judges their own judge agents, as a rubric's", () => {
    const agents = judgeAgents([{ graders: [{ rubric: "r", judges: ["a/one", "b/two"] }, { compare: { rubric: "c", reference: "x", judges: ["b/two", "c/three"] } }] }]);
    expect([...agents.keys()]).toEqual([undefined, "a/one", "b/two", "c/three"]);
  });
});

describe("a compare grader in a task file", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const taskIn = (yaml: string, files: Record<string, string> = {}) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eval-compare-"));
    dirs.push(dir);
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
    const file = path.join(dir, "task.yaml");
    fs.writeFileSync(file, `prompt: What is my name?\ngraders:\n${yaml}`);
    return file;
  };

  it("takes the reference as text, or from a file beside the task", () => {
    expect(loadTask(taskIn(`  - compare: { rubric: "Names the user.", reference: "${REFERENCE}" }\n`)).graders).toEqual([
      { compare: { rubric: "Names the user.", reference: REFERENCE } },
    ]);
    const fromFile = loadTask(taskIn("  - compare: { rubric: Names the user., referenceFile: answers/good.md }\n", { "answers/good.md": `${REFERENCE}\n` }));
    expect(fromFile.graders).toEqual([{ compare: { rubric: "Names the user.", reference: REFERENCE } }]);
    const voted = loadTask(taskIn("  - compare: { rubric: r, referenceFile: good.md, judges: [a/one, b/two] }\n", { "good.md": "fine" }));
    expect(voted.graders).toEqual([{ compare: { rubric: "r", reference: "fine", judges: ["a/one", "b/two"] } }]);
    expect(() => loadTask(taskIn("  - compare: { rubric: r, reference: x, judges: [a/one] }\n"))).toThrow(/eval task .*task\.yaml: \/graders\/0/);
  });

  it("refuses a grader with both references, neither, a missing or empty file, or a field it does not know", () => {
    expect(() => loadTask(taskIn("  - compare: { rubric: r, reference: x, referenceFile: y.md }\n", { "y.md": "y" }))).toThrow(
      /graders\[0\] compare: give exactly one of reference or referenceFile/,
    );
    expect(() => loadTask(taskIn("  - compare: { rubric: r }\n"))).toThrow(/give exactly one of reference or referenceFile/);
    expect(() => loadTask(taskIn("  - compare: { rubric: r, referenceFile: nope.md }\n"))).toThrow(/referenceFile nope\.md does not exist \(relative to the task file\)/);
    expect(() => loadTask(taskIn("  - compare: { rubric: r, referenceFile: empty.md }\n", { "empty.md": "\n" }))).toThrow(/referenceFile empty\.md is empty/);
    expect(() => loadTask(taskIn("  - compare: { rubric: r, reference: x, weight: 2 }\n"))).toThrow(/eval task .*task\.yaml: \/graders\/0/);
  });
});
