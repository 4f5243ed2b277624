/** The identity an agent's IDENTITY.md states, in the fields `agents.entries.<id>.identity` has. */
export interface MarkdownIdentity {
  name?: string;
  emoji?: string;
  avatar?: string;
}

const FIELDS: Record<string, keyof MarkdownIdentity> = { name: "name", emoji: "emoji", avatar: "avatar" };

// Markdown emphasis and code marks around a label or a value: `**Name:** Claw`, `- _Emoji_: 🦞`.
const MARKS = /^[*_`\s]+|[*_`\s]+$/g;

/**
 * Reads `Label: value` lines (in a list or not, labels in any case, with or without emphasis)
 * for Name, Emoji and Avatar; the first line with a value wins. A label without a value, as the
 * default IDENTITY.md has until the agent fills it in, states nothing. Other lines (what the
 * agent is, its vibe) have no config field and are not read.
 */
export function parseIdentityMarkdown(text: string): MarkdownIdentity {
  const found: MarkdownIdentity = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/^[-*+]\s+/, "");
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const field = FIELDS[line.slice(0, colon).replace(MARKS, "").toLowerCase()];
    const value = line
      .slice(colon + 1)
      .replace(MARKS, "")
      .replace(/\s+/g, " ");
    if (field && value && found[field] === undefined) found[field] = value;
  }
  return found;
}
