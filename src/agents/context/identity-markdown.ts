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

const WRITTEN_LABELS: [keyof MarkdownIdentity, string][] = [
  ["name", "Name"],
  ["emoji", "Emoji"],
  ["avatar", "Avatar"],
];

// Labels of the lines that describe the agent; new ones are added after the last of these.
const DESCRIBING_LABELS = new Set(["name", "what you are", "creature", "vibe", "theme", "emoji", "avatar"]);

/** The label of a `Label: value` line (list marker and emphasis removed, lower case), or undefined. */
function labelOf(line: string): string | undefined {
  const text = line.trim().replace(/^[-*+]\s+/, "");
  const colon = text.indexOf(":");
  return colon < 0 ? undefined : text.slice(0, colon).replace(MARKS, "").toLowerCase();
}

/**
 * IDENTITY.md with `identity`'s values written in as `- Name: value` lines: a field's first line
 * is replaced and its later duplicates dropped; a field without a line gets one after the last
 * line describing the agent, else after the heading. Every other line is kept as it was; no
 * file (`undefined`) starts from a heading.
 */
export function mergeIdentityMarkdown(content: string | undefined, identity: MarkdownIdentity): string {
  const lines = content === undefined || content === "" ? ["# IDENTITY.md - your identity", ""] : content.replace(/\r\n/g, "\n").split("\n");
  for (const [field, label] of WRITTEN_LABELS) {
    const value = identity[field]?.replace(/\s+/g, " ").trim();
    if (!value) continue;
    const line = `- ${label}: ${value}`;
    const at = lines.flatMap((text, index) => (labelOf(text) === field ? [index] : []));
    if (at.length > 0) {
      lines[at[0]!] = line;
      for (const index of at.slice(1).reverse()) lines.splice(index, 1);
      continue;
    }
    lines.splice(insertionIndex(lines), 0, line);
  }
  return `${lines.join("\n").replace(/\n*$/, "")}\n`;
}

function insertionIndex(lines: string[]): number {
  let last = -1;
  lines.forEach((text, index) => {
    const label = labelOf(text);
    if (label !== undefined && DESCRIBING_LABELS.has(label)) last = index;
  });
  if (last >= 0) return last + 1;
  const heading = lines.findIndex((text) => text.trim().startsWith("#"));
  if (heading < 0) return 0;
  let index = heading + 1;
  while (index < lines.length && lines[index]!.trim() === "") index += 1;
  return index;
}
