import { renderMarkdown, type MarkdownRules } from "../../src/channels/markdown/render-markdown.js";

/**
 * Markdown (as a model writes it) → Telegram HTML (`parse_mode: "HTML"`), parsed by the shared
 * Markdown parser (src/channels/markdown/render-markdown.ts).
 *
 * Bold, italic, strike, inline code, fenced code (```lang → `<pre><code class="language-lang">`),
 * links with a web, `tg:` or `mailto:` URL, headings as bold lines, quotes as `<blockquote>`, list
 * items with `•` or their number. Everything else (raw HTML, tables, other links) stays as text
 * with `& < >` escaped, so the output is always well-formed: Telegram rejects a whole message over
 * one stray tag.
 */
export function renderTelegramHtml(markdown: string): string {
  return renderMarkdown(markdown, TELEGRAM_HTML);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, "&quot;");
}

const LINK_SCHEMES = /^(https?:\/\/|tg:\/\/|mailto:)/i;

const TELEGRAM_HTML: MarkdownRules = {
  text: escapeHtml,
  strong: (inner) => `<b>${inner}</b>`,
  em: (inner) => `<i>${inner}</i>`,
  del: (inner) => `<s>${inner}</s>`,
  codespan: (code) => `<code>${escapeHtml(code)}</code>`,
  codeBlock(code, language) {
    // The class is the only way the language reaches Telegram; anything odd in it is dropped.
    const safeLanguage = /^[A-Za-z0-9_+#.-]{1,32}$/.test(language) ? language : "";
    const body = escapeHtml(code);
    return safeLanguage ? `<pre><code class="language-${safeLanguage}">${body}</code></pre>` : `<pre>${body}</pre>`;
  },
  link: (href, inner, _plainLabel, source) => (LINK_SCHEMES.test(href) ? `<a href="${escapeAttribute(href)}">${inner}</a>` : escapeHtml(source)),
  heading: (inner) => `<b>${inner}</b>`,
  blockquote: (inner) => `<blockquote>${inner}</blockquote>`,
  listItem: (inner, marker) => `${marker} ${inner}`,
};
