import { checkProgressCardInput, type ProgressCardStep } from "../../sessions/progress-card/index.js";

/** What a progress draft shows of the session's card: its steps, or without steps its note as plain text. */
export type CardPreview = { steps: ProgressCardStep[] } | { note: string };

/**
 * The preview of a progress_card call that succeeded, from its arguments checked as the tool
 * checked them: its steps; without steps, its note with Markdown formatting and authored HTML
 * removed ("Progress updated" when nothing readable is left); null for a clear. "unchanged" for
 * arguments the tool would have refused (it did not store them either).
 */
export function cardPreview(args: Record<string, unknown>): CardPreview | null | "unchanged" {
  const checked = checkProgressCardInput(args);
  if (!checked.ok) return "unchanged";
  const { steps, markdown } = checked.content;
  if (steps) return { steps };
  if (markdown === undefined) return null;
  return { note: readableText(markdown) || "Progress updated" };
}

/** Markdown as the words a reader sees: tags, link targets, emphasis, heading, quote and table marks removed. */
function readableText(markdown: string): string {
  return markdown
    .replace(/<[^>]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s*\|?\s*:?-{3,}.*$/gm, " ")
    .replace(/[*_`#>|~]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
