import fs from "node:fs";
import path from "node:path";
import type { TraceRecord } from "../../traces/index.js";
import type { GraderSpec } from "./task-file.js";

/** What a trial produced, as the graders see it. */
export interface TrialOutput {
  /** The last reply's text. */
  finalText: string;
  /** The traces of the trial's runs, in order. */
  traces: TraceRecord[];
  workspaceDir: string;
}

export interface GraderResult {
  grader: string;
  pass: boolean;
  /** Why it failed, in words. */
  detail?: string;
}

/** Asks a model (`judgeModel`; absent: the default judge's) to judge the reply against a rubric; resolves with its verdict. */
export type RubricJudge = (rubric: string, output: TrialOutput, judgeModel?: string) => Promise<{ pass: boolean; reason: string }>;

/**
 * Asks a judge (`judgeModel`; absent: the default judge's) which of two answers (A and B, in that
 * order) better meets the rubric: `choice` is "A", "B" or "TIE", absent when it gave no such verdict.
 */
export type PairJudge = (rubric: string, answers: readonly [string, string], judgeModel?: string) => Promise<{ choice?: "A" | "B" | "TIE"; reason: string }>;

export interface Judges {
  rubric: RubricJudge;
  compare: PairJudge;
}

/** Runs the code graders first; a judged grader only when the task has one (it costs model calls). */
export async function grade(graders: readonly GraderSpec[], output: TrialOutput, judges: Judges): Promise<GraderResult[]> {
  const results: GraderResult[] = [];
  const tools = output.traces.flatMap((t) => t.toolCalls);
  for (const g of graders) {
    if ("contains" in g) results.push(check(`contains ${JSON.stringify(g.contains)}`, output.finalText.includes(g.contains), `the reply was ${quote(output.finalText)}`));
    else if ("notContains" in g)
      results.push(check(`notContains ${JSON.stringify(g.notContains)}`, !output.finalText.includes(g.notContains), `the reply was ${quote(output.finalText)}`));
    else if ("matches" in g) results.push(check(`matches /${g.matches}/`, new RegExp(g.matches).test(output.finalText), `the reply was ${quote(output.finalText)}`));
    else if ("file" in g) results.push(fileCheck(g.file, output.workspaceDir));
    else if ("toolCalled" in g)
      results.push(
        check(
          `toolCalled ${g.toolCalled}`,
          tools.some((t) => t.name === g.toolCalled),
          `tools called: ${names(tools)}`,
        ),
      );
    else if ("toolNotCalled" in g) results.push(check(`toolNotCalled ${g.toolNotCalled}`, !tools.some((t) => t.name === g.toolNotCalled), `tools called: ${names(tools)}`));
    else if ("maxToolCalls" in g) results.push(check(`maxToolCalls ${g.maxToolCalls}`, tools.length <= g.maxToolCalls, `${tools.length} tool calls: ${names(tools)}`));
    else if ("noApprovalRequested" in g) {
      const asked = tools.filter((t) => t.approval?.policy === "ask");
      results.push(check("noApprovalRequested", asked.length === 0, `approval asked for: ${asked.map((t) => t.approval!.command).join("; ")}`));
    } else if ("compare" in g) {
      results.push(await comparedWithReference(g.compare, output, judges.compare));
    } else if (g.judges) {
      results.push(await judgedByVote(g.rubric, g.judges, output, judges.rubric));
    } else {
      const verdict = await judges.rubric(g.rubric, output);
      results.push(check(`rubric ${JSON.stringify(short(g.rubric))}`, verdict.pass, verdict.reason));
    }
  }
  return results;
}

/**
 * A rubric several judges vote on, all asked at once: it passes when more than half say PASS (a
 * tie fails; a judge that gives no verdict counts as no PASS). The detail lists every vote.
 */
async function judgedByVote(rubric: string, judges: readonly string[], output: TrialOutput, judge: RubricJudge): Promise<GraderResult> {
  const votes = await Promise.all(judges.map((model) => judge(rubric, output, model)));
  const passes = votes.filter((vote) => vote.pass).length;
  const detail = `${passes} of ${judges.length} judges PASS: ${votes.map((vote, i) => `${judges[i]}: ${vote.pass ? "PASS" : "FAIL"} (${vote.reason})`).join("; ")}`;
  return check(`rubric ${JSON.stringify(short(rubric))} by ${judges.length} judges`, passes * 2 > judges.length, detail);
}

/**
 * The reply beside a reference answer, judged twice with the two in either order (a judge tends
 * to favour one position): it passes when the reply is at least as good in both, that is the
 * judge picked it or called a tie each time. A judge whose choice followed the position, not the
 * answers, fails it, and the detail says so. With `judges`, each of them compares so, all at once,
 * and the grader passes when more than half found the reply at least as good both times.
 */
async function comparedWithReference(spec: { rubric: string; reference: string; judges?: readonly string[] }, output: TrialOutput, judge: PairJudge): Promise<GraderResult> {
  const label = `compare ${JSON.stringify(short(spec.rubric))} with the reference`;
  if (!spec.judges) {
    const verdict = await compareInBothOrders(spec, output.finalText, judge);
    return check(label, verdict.pass, verdict.detail);
  }
  const judges = spec.judges;
  const verdicts = await Promise.all(judges.map((model) => compareInBothOrders(spec, output.finalText, judge, model)));
  const passes = verdicts.filter((verdict) => verdict.pass).length;
  const detail = `${passes} of ${judges.length} judges find the reply at least as good: ${verdicts.map((v, i) => `${judges[i]}: ${v.pass ? "PASS" : "FAIL"} (${v.detail})`).join("; ")}`;
  return check(`${label} by ${judges.length} judges`, passes * 2 > judges.length, detail);
}

/** One judge's comparison of the reply with the reference, once in each order. */
async function compareInBothOrders(spec: { rubric: string; reference: string }, reply: string, judge: PairJudge, model?: string): Promise<{ pass: boolean; detail: string }> {
  const [replyFirst, replySecond] = await Promise.all([judge(spec.rubric, [reply, spec.reference], model), judge(spec.rubric, [spec.reference, reply], model)]);
  const outcomes = [outcomeOf(replyFirst.choice, "A"), outcomeOf(replySecond.choice, "B")] as const;
  const pass = outcomes.every((o) => o === "better" || o === "as good");
  const positional = replyFirst.choice !== undefined && replyFirst.choice !== "TIE" && replyFirst.choice === replySecond.choice;
  const detail = [
    `the reply as A: ${outcomes[0]} (${replyFirst.reason})`,
    `the reply as B: ${outcomes[1]} (${replySecond.reason})`,
    ...(positional ? [`the judge chose ${replyFirst.choice} both times: its choice followed the position, not the answers`] : []),
  ].join("; ");
  return { pass, detail };
}

/** How the reply (in position `replyAt`) fared in one comparison. */
function outcomeOf(choice: "A" | "B" | "TIE" | undefined, replyAt: "A" | "B"): "better" | "as good" | "worse" | "no verdict" {
  if (choice === undefined) return "no verdict";
  if (choice === "TIE") return "as good";
  return choice === replyAt ? "better" : "worse";
}

function fileCheck(spec: { path: string; contains?: string; equals?: string; exists?: boolean }, workspaceDir: string): GraderResult {
  const label = `file ${spec.path}`;
  const full = path.resolve(workspaceDir, spec.path);
  if (!full.startsWith(path.resolve(workspaceDir) + path.sep)) return { grader: label, pass: false, detail: "the path leaves the workspace" };
  const exists = fs.existsSync(full);
  if (spec.exists === false) return check(`${label} absent`, !exists, "the file exists");
  if (!exists) return { grader: label, pass: false, detail: "the file does not exist" };
  const content = fs.readFileSync(full, "utf8");
  if (spec.equals !== undefined) return check(`${label} equals`, content === spec.equals || content === `${spec.equals}\n`, `the file holds ${quote(content)}`);
  if (spec.contains !== undefined) return check(`${label} contains ${JSON.stringify(spec.contains)}`, content.includes(spec.contains), `the file holds ${quote(content)}`);
  return { grader: `${label} exists`, pass: true };
}

function check(grader: string, pass: boolean, detail: string): GraderResult {
  return pass ? { grader, pass } : { grader, pass, detail };
}

function names(tools: { name: string }[]): string {
  return tools.length === 0 ? "none" : tools.map((t) => t.name).join(", ");
}

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
