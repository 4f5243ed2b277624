import DOMPurify from "dompurify";
import { Marked } from "marked";

// HTML written into the Markdown is shown as the text it is, never as markup.
const marked = new Marked({ gfm: true, breaks: true, async: false, renderer: { html: (token) => escapeHtml(token.text) } });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// Links leave the page in a new tab and cannot reach back to it.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer nofollow");
  }
});

/**
 * Markdown from a model, as HTML that is safe to insert: marked renders it with any raw HTML
 * escaped to text, then DOMPurify removes what Markdown itself can still produce that could run
 * or mislead (`javascript:` links, event handlers, forms, frames, inline styles).
 */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text) as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed", "svg", "math"],
    FORBID_ATTR: ["style", "class", "id"],
  });
}
