/**
 * What an eval judge's prompt holds, read the way a fake judge model needs it: the answers it
 * judges stand between markers with a random 12-hex tag (src/cli/eval/eval-runner.ts).
 */
function fencedText(prompt: string, name: string): string | undefined {
  return new RegExp(`<${name}-[0-9a-f]{12}>\\n([\\s\\S]*?)\\n</${name}-[0-9a-f]{12}>`).exec(prompt)?.[1];
}

/** The agent's answer in a rubric judge's prompt. */
export function judgedAnswer(prompt: string): string | undefined {
  return fencedText(prompt, "answer");
}

/** Answers A and B in a compare judge's prompt. */
export function comparedAnswers(prompt: string): [string | undefined, string | undefined] {
  return [fencedText(prompt, "answer-a"), fencedText(prompt, "answer-b")];
}
