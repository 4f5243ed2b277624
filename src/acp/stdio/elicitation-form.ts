import type { CreateElicitationRequest, ElicitationContentValue } from "@agentclientprotocol/sdk";
import { cutHeader } from "../../agents/questions/ask-user-params.js";
import type { Question, QuestionAnswers } from "../../agents/questions/question-broker.js";

/** Fields asked at once (one question each); a longer form is asked in several rounds. */
export const FIELDS_PER_ROUND = 3;
/** More fields than this and the form is declined: nobody answers a questionnaire in a chat. */
const MAX_FIELDS = 12;
/** A choice field with this many options or fewer gets them as options; more are listed in its text. */
const MAX_OPTIONS = 4;
/** What an optional field's answer in words is to leave it out. */
export const LEAVE_OUT = "-";
/** The option an optional choice field adds to leave it out. */
export const LEAVE_OUT_OPTION = "Leave out";

/** One form field as asked: its question, and how its typed answer becomes the value the agent gets. */
export interface FormField {
  /** The field's name in the agent's schema (its question's id is a protocol-safe form of it). */
  key: string;
  question: Question;
  /** The value for the agent, `undefined` to leave an optional field out, or why the answer does not fit. */
  read(answers: readonly string[]): { value: ElicitationContentValue | undefined } | { problem: string };
}

/** A yes-or-no step: a URL to visit, or a form with no fields to allow. `accept` is the option that accepts. */
export interface Confirmation {
  question: Question;
  accept: string;
  /** What `accept` sends: a form's (empty) values, or nothing for a URL. */
  content?: Record<string, ElicitationContentValue>;
}

/** A form's fields in the rounds they are asked in, a step to confirm, or why the request cannot be shown here. */
export type CompiledForm = { rounds: FormField[][] } | { confirm: Confirmation } | { unsupported: string };

/** The option that says a URL's step is done. */
export const URL_DONE = "I've completed this step";
const ALLOW = "Allow";
const DECLINE = "Decline";

type Choice = { value: string; label: string };

/**
 * An ACP `elicitation/create` in form mode as questions: a field per question, in rounds of
 * FIELDS_PER_ROUND. A choice of 2-4 gets options (a multi-select for an array of choices); a
 * boolean True and False; numbers, text and longer choices are answered in words, checked
 * against the schema. An optional field says how to leave it out. A form without fields is a
 * step to allow or decline; a URL request, a link to open and confirm. Anything else (a field
 * type this does not know, an over-long form, a URL that is not http(s)) is unsupported, with the
 * reason.
 */
export function compileForm(request: CreateElicitationRequest): CompiledForm {
  const message = request.message.trim() || "The agent needs your input";
  if (request.mode === "url") return urlStep(message, (request as { url?: unknown }).url);
  if (request.mode !== "form") return { unsupported: `elicitation mode "${String(request.mode)}" is not supported here` };
  const schema = (request as { requestedSchema?: { type?: unknown; properties?: unknown; required?: unknown } }).requestedSchema;
  if (schema?.type !== "object" || typeof schema.properties !== "object" || schema.properties === null)
    return { unsupported: "the form's schema is not an object with properties" };
  const entries = Object.entries(schema.properties as Record<string, unknown>);
  if (entries.length === 0) {
    const question = { questionId: "confirm", header: "Confirm", question: message, options: [{ label: ALLOW }, { label: DECLINE }] };
    return { confirm: { question, accept: ALLOW, content: {} } };
  }
  if (entries.length > MAX_FIELDS) return { unsupported: `the form has ${entries.length} fields (at most ${MAX_FIELDS} are asked)` };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : []);
  const fields: FormField[] = [];
  const ids = new Set<string>();
  for (const [key, raw] of entries) {
    const field = compileField(key, questionIdFor(key, ids), raw, required.has(key));
    if (typeof field === "string") return { unsupported: `field "${key}" ${field}` };
    fields.push({ key, ...field });
  }
  // The request's message leads the first question of each round.
  const rounds: FormField[][] = [];
  for (let i = 0; i < fields.length; i += FIELDS_PER_ROUND) rounds.push(fields.slice(i, i + FIELDS_PER_ROUND));
  for (const round of rounds) round[0]!.question.question = `${message}\n${round[0]!.question.question}`;
  return { rounds };
}

/** A URL the person opens to do a step in their browser (http or https, no credentials in it), then confirms. */
function urlStep(message: string, raw: unknown): CompiledForm {
  const url = typeof raw === "string" ? URL.parse(raw) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return { unsupported: "its URL is not an http or https address" };
  if (url.username || url.password) return { unsupported: "its URL holds credentials" };
  const question = {
    questionId: "continue",
    header: "Browser step",
    question: `${message}\n\n${url.href}\n\nOpen the link and complete the step in your browser, then answer "${URL_DONE}".`,
    url: url.href,
    options: [{ label: URL_DONE }, { label: DECLINE }],
  };
  return { confirm: { question, accept: URL_DONE } };
}

/** The answers of one round as the agent's values; the first answer that does not fit, as a problem. */
export function readRound(round: readonly FormField[], answers: QuestionAnswers): { content: Record<string, ElicitationContentValue> } | { problem: string } {
  const content: Record<string, ElicitationContentValue> = {};
  for (const field of round) {
    const read = field.read(answers[field.question.questionId] ?? []);
    if ("problem" in read) return { problem: `${field.question.header}: ${read.problem}` };
    if (read.value !== undefined) content[field.key] = read.value;
  }
  return { content };
}

/**
 * A question id the protocol takes (`^[a-z][a-z0-9_]*$`) for a field name: lower case, other
 * characters as `_`, a letter first, and unique within the form.
 */
function questionIdFor(key: string, taken: Set<string>): string {
  let id = key.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  if (!/^[a-z]/.test(id)) id = `f_${id}`;
  let unique = id;
  for (let n = 2; taken.has(unique); n++) unique = `${id}_${n}`;
  taken.add(unique);
  return unique;
}

function compileField(key: string, questionId: string, raw: unknown, required: boolean): Omit<FormField, "key"> | string {
  if (key.length === 0 || key.length > 64) return "has a name that is empty or too long";
  if (typeof raw !== "object" || raw === null) return "has no schema";
  const schema = raw as Record<string, unknown>;
  const title = text(schema.title) ?? key;
  const base = {
    questionId,
    header: cutHeader(title) || key.slice(0, 12),
    question: text(schema.description) ?? title,
  };
  /** A field answered in words says how to leave it out when it is optional. */
  const inWords = required ? base : { ...base, question: `${base.question} (optional: reply ${LEAVE_OUT} to leave it out)` };
  const omitted = (answer: string) => !required && answer.trim() === LEAVE_OUT;
  switch (schema.type) {
    case "boolean": {
      const choices = [
        { value: "true", label: "True" },
        { value: "false", label: "False" },
      ];
      const field = choiceField(base, choices, false, required, omitted);
      return { question: field.question, read: (answers) => mapValue(field.read(answers), (value) => value === "true") };
    }
    case "number":
    case "integer": {
      const integer = schema.type === "integer";
      const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
      const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
      return {
        question: { ...inWords, options: [] },
        read: ([answer = ""]) => {
          if (omitted(answer)) return { value: undefined };
          const value = Number(answer.trim());
          if (!answer.trim() || !Number.isFinite(value) || (integer && !Number.isInteger(value))) return { problem: `answer ${integer ? "a whole number" : "a number"}` };
          if ((min !== undefined && value < min) || (max !== undefined && value > max)) return { problem: `answer a number ${rangeText(min, max)}` };
          return { value };
        },
      };
    }
    case "string": {
      const choices = stringChoices(schema);
      if (choices) return choiceField(base, choices, false, required, omitted);
      return {
        question: { ...inWords, options: [] },
        read: ([answer = ""]) => (omitted(answer) ? { value: undefined } : answer.trim() ? { value: answer.trim() } : { problem: "answer in words" }),
      };
    }
    case "array": {
      const choices = arrayChoices(schema.items);
      if (!choices) return "is a list without choices";
      return choiceField(base, choices, true, required, omitted);
    }
    default:
      return `has a type this gateway cannot ask for (${JSON.stringify(schema.type)})`;
  }
}

/**
 * Options for 2-4 choices (their titles as labels; an optional field adds "Leave out", within the
 * four); a longer list is written into the question and answered in words.
 */
function choiceField(base: Omit<Question, "options">, choices: Choice[], multi: boolean, required: boolean, omitted: (answer: string) => boolean): Omit<FormField, "key"> {
  const labels = [...choices.map((c) => c.label), ...(required ? [] : [LEAVE_OUT_OPTION])];
  const asOptions = choices.length >= 2 && labels.length <= MAX_OPTIONS && new Set(labels.map((l) => l.toLowerCase())).size === labels.length;
  const question: Question = asOptions
    ? { ...base, question: required ? base.question : `${base.question} (optional)`, options: labels.map((label) => ({ label })), ...(multi ? { multiSelect: true } : {}) }
    : {
        ...base,
        question: `${base.question}${required ? "" : ` (optional: reply ${LEAVE_OUT} to leave it out)`}\nOne${multi ? " or more (comma-separated)" : ""} of: ${choices.map((c) => c.label).join(", ")}`,
        options: [],
      };
  const find = (answer: string) => choices.find((c) => c.label.toLowerCase() === answer.trim().toLowerCase() || c.value.toLowerCase() === answer.trim().toLowerCase());
  return {
    question,
    read: (answers) => {
      if (answers.length === 1 && (omitted(answers[0]!) || (!required && answers[0] === LEAVE_OUT_OPTION))) return { value: undefined };
      const parts = asOptions ? answers : answers.flatMap((a) => (multi ? a.split(",") : [a]));
      const picked = parts.map(find);
      if (picked.length === 0 || picked.some((c) => !c)) return { problem: `answer ${multi ? "one or more" : "one"} of ${choices.map((c) => c.label).join(", ")}` };
      return { value: multi ? [...new Set(picked.map((c) => c!.value))] : picked[0]!.value };
    },
  };
}

function mapValue(read: ReturnType<FormField["read"]>, map: (value: ElicitationContentValue) => ElicitationContentValue): ReturnType<FormField["read"]> {
  return "value" in read && read.value !== undefined ? { value: map(read.value) } : read;
}

function stringChoices(schema: Record<string, unknown>): Choice[] | undefined {
  if (Array.isArray(schema.oneOf)) return titled(schema.oneOf);
  if (Array.isArray(schema.enum)) return schema.enum.filter((v): v is string => typeof v === "string").map((v) => ({ value: v, label: v }));
  return undefined;
}

function arrayChoices(items: unknown): Choice[] | undefined {
  if (typeof items !== "object" || items === null) return undefined;
  const record = items as Record<string, unknown>;
  if (Array.isArray(record.anyOf)) return titled(record.anyOf);
  if (Array.isArray(record.enum)) return record.enum.filter((v): v is string => typeof v === "string").map((v) => ({ value: v, label: v }));
  return undefined;
}

function titled(options: unknown[]): Choice[] {
  return options
    .filter((o): o is { const: string; title?: unknown } => typeof o === "object" && o !== null && typeof (o as { const?: unknown }).const === "string")
    .map((o) => ({ value: o.const, label: text(o.title) ?? o.const }));
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  return min !== undefined ? `of at least ${min}` : `of at most ${max}`;
}
