import DOMPurify from "dompurify";
import { Marked } from "marked";

const marked = new Marked({ gfm: true, breaks: true, async: false });

// Links leave the page in a new tab and cannot reach back to it.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer nofollow");
  }
});

/**
 * Markdown from a model or a tool, as HTML that is safe to insert: marked parses it, DOMPurify
 * removes scripts, event handlers, `javascript:` links, forms, frames and inline styles. Raw
 * HTML in the text never runs; it is shown only as far as the sanitizer lets plain markup through.
 */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text) as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed", "svg", "math"],
    FORBID_ATTR: ["style", "class", "id"],
  });
}
