import { renderMarkdown, type MarkdownRules } from "../../src/channels/markdown/render-markdown.js";

/**
 * Markdown (as models write it) → Slack mrkdwn, parsed by the shared Markdown parser
 * (src/channels/markdown/render-markdown.ts).
 *
 * Slack reads `<…>` as control sequences: `<!channel>` pings a whole channel, `<url|label>` makes
 * a link. Model output is untrusted, so `&`, `<` and `>` are escaped everywhere (code included:
 * Slack shows `&lt;` as `<` inside code too), and the only `<…>` sequences that survive are the
 * links this renderer builds and plain user mentions `<@U…>`. Everything else maps one to one:
 * `**b**` → `*b*`, `*i*`/`_i_` → `_i_`, `~~s~~` → `~s~`, `[t](url)` → `<url|t>`, `# h` → `*h*`,
 * list bullets → `•`. Code keeps its content; a fence drops its language tag, which Slack would
 * otherwise print as the first line of code, and is always closed.
 */
export function markdownToMrkdwn(markdown: string): string {
  return renderMarkdown(markdown, SLACK_MRKDWN);
}

/** `&`, `<`, `>` as Slack wants them in message text. */
function escapeControl(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Plain text, escaped, with plain user mentions (`<@U024BE7LH>`, no label) kept live. */
function text(raw: string): string {
  return escapeControl(raw).replace(/&lt;@([UW][A-Z0-9]{2,})&gt;/g, "<@$1>");
}

/** URLs never contain `<` or `>` here (the parser excludes them); a raw `|` would end the URL early. */
function escapeUrl(url: string): string {
  return url.replace(/&/g, "&amp;").replace(/\|/g, "%7C");
}

const SLACK_MRKDWN: MarkdownRules = {
  text,
  strong: (inner) => `*${inner}*`,
  em: (inner) => `_${inner}_`,
  del: (inner) => `~${inner}~`,
  codespan: (code) => `\`${escapeControl(code)}\``,
  codeBlock: (code) => `\`\`\`\n${escapeControl(code)}\n\`\`\``,
  link(href, inner, plainLabel) {
    // Slack only links absolute URLs; anything else (relative paths, javascript:) stays visible text.
    if (!/^(?:https?|mailto):/i.test(href)) return `${inner} (${escapeControl(href)})`;
    // A link label cannot carry formatting in Slack: keep its words only.
    const label = plainLabel.trim();
    if (!label || label === href) return `<${escapeUrl(href)}>`;
    return `<${escapeUrl(href)}|${escapeControl(label)}>`;
  },
  // The heading is bold already; bold inside it would close the outer `*` early.
  heading: (_inner, plainText) => (plainText ? `*${text(plainText)}*` : ""),
  blockquote: (inner) =>
    inner
      .split("\n")
      .map((line) => `&gt; ${line}`)
      .join("\n"),
  listItem: (inner, marker) => `${marker} ${inner}`,
};
