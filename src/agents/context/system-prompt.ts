import { createHash } from "node:crypto";
import { renderSkillsIndex, type SkillIndexEntry } from "../skills/skills-index.js";
import type { LoadedBootstrap } from "./bootstrap-files.js";
import { formatCurrentTime } from "./format-current-time.js";
import { DAILY_NOTES_NOTE, IDENTITY_LINE, MEMORY_RECALL_TEXT, NO_TOOLS, PROJECT_CONTEXT_INTRO, SAFETY_RULES, SOUL_NOTE, TOOLS_INTRO, TOOLS_NOTE } from "./prompt-texts.js";
import { formatRuntimeLine, type RuntimeInfo } from "./runtime-line.js";
import { orderToolsForPrompt } from "./tool-order.js";
import { LRUCache } from "lru-cache";

/** `full` for main sessions, `minimal` for sub-agents, `none` for a bare identity line. */
export type PromptMode = "full" | "minimal" | "none";

export type PromptSectionName = "identity" | "tools" | "safety" | "skills" | "memory" | "workspace" | "bootstrap" | "extra" | "runtime" | "datetime";

export interface BuildSystemPromptParams {
  mode: PromptMode;
  agentId: string;
  /** The agent's configured display name (`identity.name`), if any. */
  identityName?: string;
  /** One-line summaries; the full schemas travel separately as tool definitions. */
  tools: { name: string; summary: string }[];
  /** In precedence order, already gated (see filterSkills). */
  skills: SkillIndexEntry[];
  skillsCharBudget?: number;
  memoryToolsAvailable: boolean;
  workspaceDir: string;
  bootstrap: LoadedBootstrap;
  runtime: RuntimeInfo;
  now: Date;
  timeZone: string;
  /** Group-chat context for main sessions, the task brief for sub-agents. */
  extraSystemPrompt?: string;
}

export interface BuiltSystemPrompt {
  text: string;
  /** Each section's size, in prompt order; for `/context`-style reports and budget tests. */
  sections: { name: PromptSectionName; chars: number }[];
  /**
   * Names what someone changed in the agent the prompt is built from (16 hex digits of a SHA-256):
   * its identity, workspace, skills, workspace files (but PROMPT_VERSION_LEAVES_OUT) and this
   * gateway's own prompt texts. The same for every session of the agent and its sub-agents: not
   * the tools a session may use (each session's policy decides them), the prompt mode, the
   * session's context, runtime line or clock.
   */
  version: string;
}

/** Files that change without anyone changing the agent: its memory, and the first-run ritual it deletes. */
export const PROMPT_VERSION_LEAVES_OUT: readonly string[] = ["MEMORY.md", "memory.md", "BOOTSTRAP.md"];

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function identitySection(identityName: string | undefined): string {
  const name = identityName ? oneLine(identityName) : "";
  return name ? `${IDENTITY_LINE}\nYour name is ${name}.` : IDENTITY_LINE;
}

function toolsSection(tools: BuildSystemPromptParams["tools"]): string {
  const ordered = orderToolsForPrompt(tools);
  if (ordered.length === 0) return `## Tooling\n${NO_TOOLS}`;
  const lines = ordered.map((tool) => `- ${tool.name} — ${oneLine(tool.summary)}`);
  return ["## Tooling", TOOLS_INTRO, ...lines, TOOLS_NOTE].join("\n");
}

function safetySection(): string {
  return ["## Safety", ...SAFETY_RULES.map((rule) => `- ${rule}`)].join("\n");
}

function workspaceSection(workspaceDir: string, withMemoryNotes: boolean): string {
  const lines = ["## Workspace", `Your working directory: ${workspaceDir}`, "Relative paths resolve against it. It is your default folder, not a sandbox."];
  if (withMemoryNotes) lines.push(DAILY_NOTES_NOTE);
  return lines.join("\n");
}

function bootstrapSection(bootstrap: LoadedBootstrap): string | null {
  if (bootstrap.files.length === 0) return null;
  const intro = [PROJECT_CONTEXT_INTRO];
  if (bootstrap.files.some((file) => file.name === "SOUL.md")) intro.push(SOUL_NOTE);
  const files = bootstrap.files.map((file) => `## ${file.name}\n\n${file.content}`);
  return ["# Project Context", intro.join("\n"), ...files].join("\n\n");
}

/**
 * Assembles the system prompt. A pure function of its parameters: it reads no files, no clock
 * and no config, so the same inputs give the same bytes (the stable part is memoized).
 *
 * Order matters for prompt caching: providers reuse the longest unchanged prefix, so everything
 * stable comes first (identity, tools, safety, skills, memory rule, workspace, the bootstrap
 * files), then what varies by session (extra context, runtime line), and the clock, which changes
 * every request, comes last.
 */
export function buildSystemPrompt(params: BuildSystemPromptParams): BuiltSystemPrompt {
  const stable = stableSections(params);
  const session: Section[] = [];
  if (params.mode !== "none") {
    const full = params.mode === "full";
    const extra = params.extraSystemPrompt?.trim();
    if (extra) session.push({ name: "extra", text: `${full ? "## Group Chat Context" : "## Subagent Context"}\n${extra}` });
    session.push({ name: "runtime", text: `## Runtime\n${formatRuntimeLine(params.runtime)}` });
    session.push({ name: "datetime", text: `## Current Date & Time\n${formatCurrentTime(params.now, params.timeZone)}` });
  }

  // Turns of a session within the same minute build the same prompt: give back the same
  // object, so the tens of KB of text are not joined (and then hashed again) on every turn.
  const sessionKey = session.map((section) => section.text).join("\u0000");
  const last = lastBuilt.get(stable);
  if (last?.sessionKey === sessionKey) return last.built;
  const sections = [...stable, ...session];
  const built: BuiltSystemPrompt = {
    text: sections.map((section) => section.text).join("\n\n"),
    sections: sections.map((section) => ({ name: section.name, chars: section.text.length })),
    version: promptVersion(stable, params),
  };
  lastBuilt.set(stable, { sessionKey, built });
  return built;
}

/** The gateway's own words in every prompt: a new release that rewords them is a change too. */
const PROMPT_TEXTS = [IDENTITY_LINE, ...SAFETY_RULES, MEMORY_RECALL_TEXT, TOOLS_INTRO, TOOLS_NOTE, NO_TOOLS, PROJECT_CONTEXT_INTRO, SOUL_NOTE, DAILY_NOTES_NOTE].join("\u0000");

/** Each set of stable sections' version, hashed once (the sets of one agent share it). */
const versions = new WeakMap<readonly Section[], string>();

function promptVersion(stable: readonly Section[], params: BuildSystemPromptParams): string {
  let version = versions.get(stable);
  if (version === undefined) {
    const hash = createHash("sha256").update(`${PROMPT_TEXTS}\u0000${params.identityName ?? ""}\u0000${params.workspaceDir}\u0000`);
    for (const skill of params.skills) hash.update(`skill\u0000${skill.name}\u0000${skill.filePath}\u0000${skill.description}\u0000`);
    for (const file of params.bootstrap.files) if (!PROMPT_VERSION_LEAVES_OUT.includes(file.name)) hash.update(`file\u0000${file.name}\u0000${file.content}\u0000`);
    version = hash.digest("hex").slice(0, 16);
    versions.set(stable, version);
  }
  return version;
}

/** The last prompt built on each set of stable sections (read-only for callers). */
const lastBuilt = new WeakMap<readonly Section[], { sessionKey: string; built: BuiltSystemPrompt }>();

type Section = { name: PromptSectionName; text: string };

/**
 * The sections before the session-specific ones, which every turn of an agent repeats: built
 * once per set of inputs. The bootstrap object is reloaded from disk at most every few seconds
 * (turn-context-cache), so keying on it keeps the cache fresh and lets old entries go.
 */
const stableCache = new WeakMap<LoadedBootstrap, LRUCache<string, readonly Section[]>>();
const MAX_STABLE_PER_BOOTSTRAP = 16;

function stableSections(params: BuildSystemPromptParams): readonly Section[] {
  // Turns usually pass the very same tool and skill lists (turn-plan-cache): then the sections
  // are found without joining every tool and skill into a key string.
  const scalars = `${params.mode}\u0000${params.identityName ?? ""}\u0000${params.workspaceDir}\u0000${params.memoryToolsAvailable}\u0000${params.skillsCharBudget ?? ""}`;
  const seen = lastForLists.get(params.tools)?.get(params.skills);
  if (seen && seen.bootstrap === params.bootstrap && seen.scalars === scalars) return seen.sections;
  const sections = stableSectionsByKey(params);
  let bySkills = lastForLists.get(params.tools);
  if (!bySkills) lastForLists.set(params.tools, (bySkills = new WeakMap()));
  bySkills.set(params.skills, { bootstrap: params.bootstrap, scalars, sections });
  return sections;
}

const lastForLists = new WeakMap<object, WeakMap<object, { bootstrap: LoadedBootstrap; scalars: string; sections: readonly Section[] }>>();

function stableSectionsByKey(params: BuildSystemPromptParams): readonly Section[] {
  const key = [
    params.mode,
    params.identityName ?? "",
    params.workspaceDir,
    params.memoryToolsAvailable,
    params.skillsCharBudget ?? "",
    ...params.tools.map((tool) => `${tool.name}\u0001${tool.summary}`),
    ...params.skills.map((skill) => `${skill.name}\u0001${skill.filePath}\u0001${skill.description}\u0001${skill.disableModelInvocation ? 1 : 0}`),
  ].join("\u0000");
  let byKey = stableCache.get(params.bootstrap);
  if (!byKey) stableCache.set(params.bootstrap, (byKey = new LRUCache({ max: MAX_STABLE_PER_BOOTSTRAP })));
  let sections = byKey.get(key);
  if (!sections) {
    sections = buildStableSections(params);
    byKey.set(key, sections);
  }
  return sections;
}

function buildStableSections(params: BuildSystemPromptParams): Section[] {
  const sections: { name: PromptSectionName; text: string | null }[] = [{ name: "identity", text: identitySection(params.identityName) }];
  if (params.mode !== "none") {
    const full = params.mode === "full";
    sections.push({ name: "tools", text: toolsSection(params.tools) });
    if (full) {
      sections.push({ name: "safety", text: safetySection() });
      const index = renderSkillsIndex(params.skills, { workspaceDir: params.workspaceDir, budgetChars: params.skillsCharBudget });
      sections.push({ name: "skills", text: index.text ? `## Skills\n${index.text}` : null });
      sections.push({ name: "memory", text: params.memoryToolsAvailable ? `## Memory Recall\n${MEMORY_RECALL_TEXT}` : null });
    }
    sections.push({ name: "workspace", text: workspaceSection(params.workspaceDir, full) });
    if (full) sections.push({ name: "bootstrap", text: bootstrapSection(params.bootstrap) });
  }
  return sections.filter((section): section is Section => section.text !== null);
}
