import { Type, type Static } from "@sinclair/typebox";
import type { Question } from "./question-broker.js";

/** A question's header, as the chips of the Control UI show it: longer input is cut to this many characters. */
const HEADER_CHARS = 12;
/** The longest option label (a button's text on every platform). */
const LABEL_CHARS = 64;
export const ASK_USER_DEFAULT_TIMEOUT_SECONDS = 900;
export const ASK_USER_MIN_TIMEOUT_SECONDS = 30;
export const ASK_USER_MAX_TIMEOUT_SECONDS = 3600;

const AskUserQuestion = Type.Object(
  {
    id: Type.String({ pattern: "^[a-z][a-z0-9_]*$", maxLength: 64, description: "Unique snake_case answer key." }),
    header: Type.String({ minLength: 1, description: `Short chip label; longer input is cut to ${HEADER_CHARS} characters.` }),
    question: Type.String({ minLength: 1, maxLength: 500, description: "One sentence. Put every choice in options, not here." }),
    options: Type.Array(
      Type.Object(
        {
          label: Type.String({ minLength: 1, maxLength: LABEL_CHARS }),
          description: Type.Optional(Type.String({ maxLength: 200 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 2, maxItems: 4, description: "Every choice, the recommended one first with ` (Recommended)` after its label. No Other option: free text is always allowed." },
    ),
    multiSelect: Type.Optional(Type.Boolean({ description: "True only when several options may be chosen at once." })),
  },
  { additionalProperties: false },
);

export const AskUserParameters = Type.Object(
  {
    questions: Type.Array(AskUserQuestion, { minItems: 1, maxItems: 3 }),
    timeoutSeconds: Type.Optional(
      Type.Integer({
        description: `The longest wait for the answer, in seconds: default ${ASK_USER_DEFAULT_TIMEOUT_SECONDS}, kept within ${ASK_USER_MIN_TIMEOUT_SECONDS}-${ASK_USER_MAX_TIMEOUT_SECONDS}. Stopping the run ends it sooner.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export type AskUserArgs = Static<typeof AskUserParameters>;

/** At most HEADER_CHARS UTF-16 units (the protocol's limit, as JavaScript counts length), never half a character. */
export function cutHeader(header: string): string {
  let cut = "";
  for (const char of header) {
    if (cut.length + char.length > HEADER_CHARS) break;
    cut += char;
  }
  return cut;
}

/** What the agent asked, checked and made canonical: the broker's questions and the wait in milliseconds. */
export type NormalizedAskUser = { ok: true; questions: Question[]; timeoutMs: number } | { ok: false; problem: string };

/**
 * The rules the schema cannot state: ids unique, option labels unique (case aside), no authored
 * "Other" (free text is always offered), headers cut to their chip size, the wait kept in bounds.
 * Every question takes free text (`isOther`).
 */
export function normalizeAskUser(args: AskUserArgs): NormalizedAskUser {
  const ids = args.questions.map((q) => q.id);
  if (new Set(ids).size !== ids.length) return { ok: false, problem: "each question needs its own id" };
  const questions: Question[] = [];
  for (const q of args.questions) {
    const header = cutHeader(q.header.trim());
    const question = q.question.trim();
    if (!header || !question) return { ok: false, problem: `question ${q.id} needs a header and a question that are not blank` };
    const options = q.options.map((o) => ({ label: o.label.trim(), ...(o.description?.trim() ? { description: o.description.trim() } : {}) }));
    const labels = options.map((o) => o.label.toLowerCase());
    if (labels.some((label) => !label)) return { ok: false, problem: `question ${q.id} has an option without a label` };
    if (new Set(labels).size !== labels.length) return { ok: false, problem: `question ${q.id} offers the same option twice` };
    if (labels.some((label) => /^other\b/.test(label))) return { ok: false, problem: `question ${q.id} has an "Other" option: free text is always offered, leave it out` };
    questions.push({ questionId: q.id, header, question, options, ...(q.multiSelect ? { multiSelect: true } : {}), isOther: true });
  }
  const seconds = Math.min(ASK_USER_MAX_TIMEOUT_SECONDS, Math.max(ASK_USER_MIN_TIMEOUT_SECONDS, args.timeoutSeconds ?? ASK_USER_DEFAULT_TIMEOUT_SECONDS));
  return { ok: true, questions, timeoutMs: seconds * 1000 };
}
