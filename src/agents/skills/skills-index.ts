import path from "node:path";

/** What the prompt index needs to know about a skill. `DiscoveredSkill` is one of these. */
export interface SkillIndexEntry {
  name: string;
  description: string;
  /** Absolute path of the skill's SKILL.md. */
  filePath: string;
  /** Skills marked `disable-model-invocation` stay out of the index (users may still run them). */
  disableModelInvocation?: boolean;
}

/** `maxSkillsPromptChars` and `maxSkillsInPrompt` defaults of OpenClaw (see docs/skills.md, "The index in the prompt"). */
export const DEFAULT_SKILLS_PROMPT_CHARS = 18_000;
export const MAX_SKILLS_IN_PROMPT = 150;

/** Longest "use when" kept per line; a description is meant to be one short routing rule. */
const MAX_USE_WHEN_CHARS = 200;

export const SKILLS_INSTRUCTION =
  "Skills are short guides for specific jobs. Before you reply, check this list: if one skill clearly fits the task, " +
  "`read` its SKILL.md first and follow it; if several fit, pick the most specific; if none fits, read nothing. " +
  "Read at most one up front. Relative paths inside a skill refer to its own folder.";

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The description's first sentence: the routing rule ("Use when …"), without the detail. */
export function skillUseWhen(description: string): string {
  const flat = oneLine(description);
  const match = /^.+?[.!?](?=\s|$)/.exec(flat);
  const sentence = match ? match[0] : flat;
  return sentence.length > MAX_USE_WHEN_CHARS ? `${sentence.slice(0, MAX_USE_WHEN_CHARS - 1)}…` : sentence;
}

/** Relative to the workspace when inside it (shorter, and what the read tool resolves), else absolute. */
export function skillDisplayPath(filePath: string, workspaceDir: string): string {
  const relative = path.relative(workspaceDir, filePath);
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  return inside ? relative.split(path.sep).join("/") : filePath;
}

function omittedNote(count: number): string {
  return `(${count} more ${count === 1 ? "skill was" : "skills were"} left out to fit the prompt budget.)`;
}

export interface RenderedSkillsIndex {
  /** The index body (instruction line, one line per skill, maybe a note); "" when nothing fits. */
  text: string;
  included: number;
  omitted: number;
}

/**
 * Renders the skills index for the system prompt. `entries` must be in precedence order (as
 * `discoverSkills` returns them): when the index exceeds `budgetChars` or MAX_SKILLS_IN_PROMPT,
 * entries are dropped from the end, so the lowest-precedence skills go first.
 */
export function renderSkillsIndex(entries: readonly SkillIndexEntry[], options: { workspaceDir: string; budgetChars?: number }): RenderedSkillsIndex {
  const budget = options.budgetChars ?? DEFAULT_SKILLS_PROMPT_CHARS;
  const visible = entries.filter((entry) => !entry.disableModelInvocation);
  if (visible.length === 0) return { text: "", included: 0, omitted: 0 };
  const lines = visible.map((entry) => `- ${oneLine(entry.name)}: ${skillUseWhen(entry.description)} → ${skillDisplayPath(entry.filePath, options.workspaceDir)}`);

  // Cumulative length of the instruction plus the first k lines, each joined with "\n".
  let length = SKILLS_INSTRUCTION.length;
  let count = 0;
  while (count < lines.length && count < MAX_SKILLS_IN_PROMPT) {
    const next = length + 1 + lines[count]!.length;
    const noteRoom = count + 1 < visible.length ? 1 + omittedNote(visible.length - count - 1).length : 0;
    if (next + noteRoom > budget) break;
    length = next;
    count += 1;
  }
  if (count === 0) return { text: "", included: 0, omitted: visible.length };
  const omitted = visible.length - count;
  const body = [SKILLS_INSTRUCTION, ...lines.slice(0, count), ...(omitted > 0 ? [omittedNote(omitted)] : [])];
  return { text: body.join("\n"), included: count, omitted };
}
