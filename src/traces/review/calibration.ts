/** One queued run with both an operator's label and a judge's pass/fail verdict. */
export interface GradedPair {
  runId: string;
  label: "pass" | "fail";
  verdict: "pass" | "fail";
}

/**
 * How far the judge can be trusted (docs/traces.md#calibration): over the runs both graded, how
 * often they agree, the 2x2 table of label against verdict, Cohen's kappa (agreement beyond what
 * chance would give), and the runs where they disagree.
 */
export interface Calibration {
  count: number;
  /** Share of the runs where label and verdict agree; null with no runs. */
  agreement: number | null;
  confusion: { bothPass: number; bothFail: number; labelPassJudgeFail: number; labelFailJudgePass: number };
  /** Null with no runs, or when label and verdict were one and the same answer every time (kappa is undefined then). */
  kappa: number | null;
  disagreements: GradedPair[];
  /** Labelled runs whose verdict was graded against another rubric (or errored), left out: `openclaw traces regrade` grades them again. */
  outdated: number;
}

/** Calibration of the judge against the operator's labels. */
export function calibrate(pairs: readonly GradedPair[], outdated = 0): Calibration {
  const confusion = { bothPass: 0, bothFail: 0, labelPassJudgeFail: 0, labelFailJudgePass: 0 };
  const disagreements: GradedPair[] = [];
  for (const pair of pairs) {
    if (pair.label === pair.verdict) confusion[pair.label === "pass" ? "bothPass" : "bothFail"] += 1;
    else {
      confusion[pair.label === "pass" ? "labelPassJudgeFail" : "labelFailJudgePass"] += 1;
      disagreements.push(pair);
    }
  }
  const count = pairs.length;
  if (count === 0) return { count, agreement: null, confusion, kappa: null, disagreements, outdated };
  const observed = (confusion.bothPass + confusion.bothFail) / count;
  const labelPass = (confusion.bothPass + confusion.labelPassJudgeFail) / count;
  const judgePass = (confusion.bothPass + confusion.labelFailJudgePass) / count;
  // Agreement by chance: both say pass, or both say fail, each at its own rate.
  const expected = labelPass * judgePass + (1 - labelPass) * (1 - judgePass);
  const kappa = expected === 1 ? null : (observed - expected) / (1 - expected);
  return { count, agreement: observed, confusion, kappa, disagreements, outdated };
}
