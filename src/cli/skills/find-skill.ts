import type { SkillStatusEntry } from "../../agents/skills/skill-status.js";

/** A name as OpenClaw compares skill selectors loosely: lower case, runs of spaces, `_` and `/` as one `-`, other symbols dropped. */
function looseName(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_/]+/g, "-")
    .replace(/[^a-z0-9-]+/g, "")
    .replace(/-+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export type SkillLookup = { skill: SkillStatusEntry } | { ambiguous: string[] } | { notFound: true };

/**
 * The skill `selector` names, tried as OpenClaw's `skills info` tries it: the exact name, then the
 * exact `skillKey`, then either ignoring case, then either loosely (`Release Notes` → `release-notes`).
 * The first rule that matches decides; when it matches several skills, none is chosen.
 */
export function findSkill(skills: readonly SkillStatusEntry[], selector: string): SkillLookup {
  const raw = selector.trim();
  const lower = raw.toLowerCase();
  const loose = looseName(raw);
  const rules: ((s: SkillStatusEntry) => boolean)[] = [
    (s) => s.name === raw,
    (s) => s.skillKey === raw,
    (s) => s.name.toLowerCase() === lower || s.skillKey.toLowerCase() === lower,
    (s) => loose !== "" && (looseName(s.name) === loose || looseName(s.skillKey) === loose),
  ];
  if (raw === "") return { notFound: true };
  for (const rule of rules) {
    const matches = skills.filter(rule);
    if (matches.length === 1) return { skill: matches[0]! };
    if (matches.length > 1) return { ambiguous: matches.map((s) => s.name) };
  }
  return { notFound: true };
}
