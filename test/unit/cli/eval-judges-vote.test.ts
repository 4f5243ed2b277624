import { describe, expect, it } from "vitest";
import { judgeAgents } from "../../../src/cli/eval/eval-runner.js";
import { grade, type Judges, type RubricJudge } from "../../../src/cli/eval/graders.js";

const output = { finalText: "Hello, Ada!", traces: [], workspaceDir: "/nowhere" };

/** Each model's verdict, as a judge would give it; the calls it was asked in. */
function judgeBy(verdicts: Record<string, boolean | "no verdict">): { judge: Judges; asked: (string | undefined)[] } {
  const asked: (string | undefined)[] = [];
  const judge: RubricJudge = async (_rubric, _output, model) => {
    asked.push(model);
    const verdict = verdicts[model ?? "default"];
    return verdict === "no verdict" ? { pass: false, reason: "the judge gave no PASS/FAIL verdict" } : { pass: verdict === true, reason: verdict ? "PASS ok" : "FAIL no" };
  };
  const compare = async () => {
    throw new Error("no compare grader in these tasks");
  };
  return { judge: { rubric: judge, compare }, asked };
}

describe("a rubric decided by several judges", () => {
  it("passes on a majority of PASS; a tie or a judge without a verdict does not help", async () => {
    const rubric = { rubric: "It greets Ada.", judges: ["a/one", "b/two", "c/three"] };
    const majority = judgeBy({ "a/one": true, "b/two": false, "c/three": true });
    expect(await grade([rubric], output, majority.judge)).toEqual([{ grader: 'rubric "It greets Ada." by 3 judges', pass: true }]);
    expect(majority.asked).toEqual(["a/one", "b/two", "c/three"]);

    const [minority] = await grade([rubric], output, judgeBy({ "a/one": true, "b/two": "no verdict", "c/three": false }).judge);
    expect(minority).toEqual({
      grader: 'rubric "It greets Ada." by 3 judges',
      pass: false,
      detail: "1 of 3 judges PASS: a/one: PASS (PASS ok); b/two: FAIL (the judge gave no PASS/FAIL verdict); c/three: FAIL (FAIL no)",
    });
    const [tie] = await grade([{ rubric: "It greets Ada.", judges: ["a/one", "b/two"] }], output, judgeBy({ "a/one": true, "b/two": false }).judge);
    expect(tie!.pass).toBe(false);
    // Without judges, the default judge alone.
    const single = judgeBy({ default: true });
    expect(await grade([{ rubric: "It greets Ada." }], output, single.judge)).toEqual([{ grader: 'rubric "It greets Ada."', pass: true }]);
    expect(single.asked).toEqual([undefined]);
  });

  it("gives each named model one judge agent, beside the default judge", () => {
    const agents = judgeAgents([
      { graders: [{ contains: "x" }, { rubric: "r", judges: ["a/one", "b/two"] }] },
      { graders: [{ rubric: "s", judges: ["b/two", "c/three"] }, { rubric: "t" }] },
    ]);
    expect([...agents]).toEqual([
      [undefined, "eval-judge"],
      ["a/one", "eval-judge-1"],
      ["b/two", "eval-judge-2"],
      ["c/three", "eval-judge-3"],
    ]);
  });
});
