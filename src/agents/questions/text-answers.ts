import type { Question, QuestionAnswers } from "./question-broker.js";

/**
 * A typed reply read as the answers to a request. One question: the whole reply answers it (an
 * option's number or label, or free text where the question takes it; several, comma-separated,
 * for a multi-select). Several questions: a line per question, either `key: answer` (the key is
 * the question's id, header, or number) or in order. A problem text when some question is left
 * without an answer.
 */
export function answersFromText(questions: readonly Question[], text: string): { answers: QuestionAnswers } | { problem: string } {
  const answers: QuestionAnswers = {};
  if (questions.length === 1) {
    const question = questions[0]!;
    answers[question.questionId] = readAnswer(text, question);
  } else {
    const keyed = keyedLines(text);
    const lines = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    questions.forEach((question, index) => {
      const reply = keyed.get(question.questionId.toLowerCase()) ?? keyed.get(question.header.toLowerCase()) ?? keyed.get(String(index + 1)) ?? lines[index] ?? "";
      answers[question.questionId] = reply ? readAnswer(reply, question) : [];
    });
  }
  const missing = questions.filter((q) => answers[q.questionId]!.length === 0);
  if (missing.length === 0) return { answers };
  const one = questions.length === 1;
  return {
    problem: one
      ? `That is not one of the choices. Reply with ${choiceHint(missing[0]!)}.`
      : `No answer for ${missing.map((q) => q.header).join(", ")}. Reply with one line per question, such as ${missing[0]!.questionId}: your answer.`,
  };
}

/** The number or label of a declared option, as that option's label. */
function declaredOption(reply: string, question: Question): string | undefined {
  const trimmed = reply.trim();
  if (/^\d+$/.test(trimmed)) return question.options[Number(trimmed) - 1]?.label;
  return question.options.find((o) => o.label.toLowerCase() === trimmed.toLowerCase())?.label;
}

function readOne(reply: string, question: Question): string | undefined {
  const trimmed = reply.trim();
  if (!trimmed) return undefined;
  return declaredOption(trimmed, question) ?? (question.isOther || question.options.length === 0 ? trimmed : undefined);
}

function readAnswer(reply: string, question: Question): string[] {
  if (!question.multiSelect) {
    const one = readOne(reply, question);
    return one ? [one] : [];
  }
  // A label that itself holds a comma is still one choice.
  const whole = declaredOption(reply, question);
  if (whole) return [whole];
  const parts = reply.split(/[,;\n]/).map((part) => readOne(part, question));
  return [...new Set(parts.filter((part): part is string => part !== undefined))];
}

function keyedLines(text: string): Map<string, string> {
  const keyed = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([^:=]+?)\s*[:=]\s*(.+?)\s*$/.exec(line);
    if (match) keyed.set(match[1]!.toLowerCase(), match[2]!);
  }
  return keyed;
}

function choiceHint(question: Question): string {
  const numbers = question.options.map((_, i) => String(i + 1)).join(", ");
  return question.isOther ? `a number (${numbers}), an option's text, or your own answer` : `a number (${numbers}) or an option's text`;
}
