import path from "node:path";
import JSON5 from "json5";
import { parseFrontmatter } from "./frontmatter.js";
import type { DiscoveredSkill, SkillGating, SkillSource } from "./skill-types.js";

/** Skill names: lowercase letters, digits and single hyphens (the AgentSkills rule), 64 at most. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME_CHARS = 64;

class SkillFormatError extends Error {}

function fail(message: string): never {
  throw new SkillFormatError(message);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A list field may be written as one string or as a list of strings. */
function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value.map((item) => item.trim()).filter(Boolean);
  }
  return fail(`${field} must be a string or a list of strings`);
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim() || undefined;
  return fail(`${field} must be a string`);
}

/** The line-based fallback parser yields strings, so "true"/"false" count as booleans too. */
function flag(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  return fail(`${field} must be true or false`);
}

/** `metadata` may be a YAML mapping or, as OpenClaw's format allows, a JSON(5) string. */
function metadataObject(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (isPlainObject(value)) return value;
  if (typeof value === "string") {
    let parsed: unknown;
    try {
      parsed = JSON5.parse(value);
    } catch (error) {
      return fail(`metadata is not valid JSON: ${(error as Error).message}`);
    }
    if (isPlainObject(parsed)) return parsed;
  }
  return fail("metadata must be a mapping or a JSON object string");
}

function parseGating(metadata: Record<string, unknown>): SkillGating {
  // Older skills name the block after the project's previous name; read it when ours is absent.
  const block = metadata.openclaw ?? metadata.clawdbot;
  if (block === undefined || block === null) return { requires: { bins: [], anyBins: [], env: [], config: [] }, always: false };
  if (!isPlainObject(block)) return fail("metadata.openclaw must be a mapping");
  const requires = block.requires ?? {};
  if (!isPlainObject(requires)) return fail("metadata.openclaw.requires must be a mapping");
  const os = block.os === undefined || block.os === null ? undefined : stringList(block.os, "metadata.openclaw.os");
  const gating: SkillGating = {
    requires: {
      bins: stringList(requires.bins, "requires.bins"),
      anyBins: stringList(requires.anyBins, "requires.anyBins"),
      env: stringList(requires.env, "requires.env"),
      config: stringList(requires.config, "requires.config"),
    },
    always: flag(block.always, "metadata.openclaw.always", false),
  };
  if (os) gating.os = os;
  const primaryEnv = optionalString(block.primaryEnv, "metadata.openclaw.primaryEnv");
  if (primaryEnv) gating.primaryEnv = primaryEnv;
  const skillKey = optionalString(block.skillKey, "metadata.openclaw.skillKey");
  if (skillKey) gating.skillKey = skillKey;
  const emoji = optionalString(block.emoji, "metadata.openclaw.emoji");
  if (emoji) gating.emoji = emoji;
  return gating;
}

export type ParsedSkill = { skill: DiscoveredSkill } | { error: string };

/** Reads one SKILL.md's text into a skill, or says precisely why it cannot be used. */
export function parseSkillFile(text: string, filePath: string, source: SkillSource): ParsedSkill {
  const frontmatter = parseFrontmatter(text);
  if ("error" in frontmatter) return frontmatter;
  const data = frontmatter.data;
  try {
    const name = optionalString(data.name, "name") ?? fail("name is missing");
    if (name.length > MAX_NAME_CHARS || !SKILL_NAME.test(name)) {
      fail(`name "${name}" must be lowercase letters, digits and hyphens (at most ${MAX_NAME_CHARS})`);
    }
    const description = optionalString(data.description, "description") ?? fail("description is missing");
    const skill: DiscoveredSkill = {
      name,
      description: description.replace(/\s+/g, " "),
      filePath,
      baseDir: path.dirname(filePath),
      source,
      userInvocable: flag(data["user-invocable"], "user-invocable", true),
      disableModelInvocation: flag(data["disable-model-invocation"], "disable-model-invocation", false),
      gating: parseGating(metadataObject(data.metadata)),
    };
    const homepage = optionalString(data.homepage, "homepage");
    if (homepage) skill.homepage = homepage;
    return { skill };
  } catch (error) {
    if (error instanceof SkillFormatError) return { error: error.message };
    throw error;
  }
}
