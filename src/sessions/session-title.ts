import type { SessionEntry } from "./store/index.js";

/**
 * A session's `derivedTitle`, as OpenClaw derives it without a model: its label, else its display
 * name, else its chat's subject, else a topic taken from its first user message.
 */

const TITLE_MAX_CHARS = 60;

/** Text a host wraps around a prompt: a first message that starts with one says nothing about the task. */
const HOST_WRAPPERS = [
  "# agents.md instructions for ",
  "<environment_context>",
  "<permissions instructions>",
  "<skills_instructions>",
  "<apps_instructions>",
  "<plugins_instructions>",
  "<recommended_plugins>",
  "<external_openclaw_",
  "openclaw runtime context",
];

/** A sentence that starts with one of these verbs states the task, so it makes the title. */
const TASK_VERBS = new Set(
  "add analyze build check compare create debug design draft explain find fix give help implement investigate list make plan prepare recommend recover rename resume review summarize test update write".split(
    " ",
  ),
);

/** The title the row's own fields give (label, display name, subject), without reading the transcript. */
export function namedSessionTitle(entry: Pick<SessionEntry, "label" | "displayName" | "subject">): string | undefined {
  for (const value of [entry.label, entry.displayName, entry.subject]) {
    const trimmed = value?.trim();
    if (trimmed) return trimmed;
  }
  return undefined;
}

/** The session's title: its named title, else the topic of `firstUserText` (undefined when neither gives one). */
export function deriveSessionTitle(entry: Pick<SessionEntry, "label" | "displayName" | "subject">, firstUserText: string | undefined): string | undefined {
  return namedSessionTitle(entry) ?? topicTitle(firstUserText);
}

/**
 * A short topic from a first user message: whitespace folded, the first sentence that starts with
 * a task verb (else the whole text), its first letter capitalized, at most 60 characters, cut at a
 * word when one ends in the last 40% and marked `…`. None for a chat command or a host wrapper.
 */
export function topicTitle(text: string | undefined): string | undefined {
  const folded = text?.replace(/\s+/g, " ").trim();
  if (!folded || folded.startsWith("/")) return undefined;
  const lower = folded.toLowerCase();
  if (HOST_WRAPPERS.some((prefix) => lower.startsWith(prefix))) return undefined;
  const sentence = folded.split(/(?<=[.!?])\s+/).find((s) =>
    TASK_VERBS.has(
      s
        .replace(/^["'`([{]+/, "")
        .split(/\s+/)[0]!
        .toLowerCase(),
    ),
  );
  const goal = (sentence ?? folded).trim();
  if (!goal) return undefined;
  return shorten(capitalized(goal));
}

function capitalized(text: string): string {
  const first = text[0]!;
  return first === first.toLowerCase() ? first.toUpperCase() + text.slice(1) : text;
}

function shorten(text: string): string {
  if (text.length <= TITLE_MAX_CHARS) return text;
  const cut = cutUtf16(text, TITLE_MAX_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > TITLE_MAX_CHARS * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** At most `length` UTF-16 units, never half a surrogate pair. */
export function cutUtf16(text: string, length: number): string {
  if (text.length <= length) return text;
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
