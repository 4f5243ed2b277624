/**
 * Markdown (as models write it) → Slack mrkdwn.
 *
 * Slack reads `<…>` as control sequences: `<!channel>` pings a whole channel, `<url|label>` makes
 * a link. Model output is untrusted, so `&`, `<` and `>` are escaped everywhere (code included:
 * Slack shows `&lt;` as `<` inside code too), and the only `<…>` sequences that survive are the
 * links this renderer builds and plain user mentions `<@U…>`. Everything else maps one to one:
 * `**b**` → `*b*`, `*i*`/`_i_` → `_i_`, `~~s~~` → `~s~`, `[t](url)` → `<url|t>`, `# h` → `*h*`,
 * list bullets → `•`. Code spans and fences keep their content; a fence drops its language tag,
 * which Slack would otherwise print as the first line of code.
 */
export function markdownToMrkdwn(markdown: string): string {
  const out: string[] = [];
  let openFence: string | undefined;
  for (const line of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    const fence = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (openFence !== undefined) {
      const closes = fence !== null && fence[1]![0] === openFence[0] && fence[1]!.length >= openFence.length && fence[2]!.trim() === "";
      if (closes) openFence = undefined;
      out.push(closes ? "```" : escapeControl(line));
    } else if (fence) {
      openFence = fence[1]!;
      out.push("```");
    } else {
      out.push(renderLine(line));
    }
  }
  // An unterminated fence would leave the rest of the message raw in Slack: close it.
  if (openFence !== undefined) out.push("```");
  return out.join("\n");
}

/** `&`, `<`, `>` as Slack wants them in message text. */
function escapeControl(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function renderLine(line: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
  if (heading) {
    // The heading is bold already; bold inside it would close the outer `*` early.
    const content = heading[1]!.replace(/\*\*(.+?)\*\*/g, "$1").replace(/__(.+?)__/g, "$1");
    return content ? `*${renderInline(content)}*` : "";
  }
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) return `${bullet[1]}• ${renderInline(bullet[2]!)}`;
  return renderInline(line);
}

const INLINE_TOKEN = new RegExp(
  [
    /\\([!-/:-@[-`{-~])/.source, // 1: backslash escape
    /(`+)([^`]|[^`][\s\S]*?[^`])\2(?!`)/.source, // 2 delimiter, 3: code span
    /!?\[([^\]\n]*)\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:\s+"[^"]*")?\s*\)/.source, // 4 label, 5 url
    /<((?:https?|mailto):[^\s<>]+)>/.source, // 6: autolink
    /<@([UW][A-Z0-9]{2,})>/.source, // 7: user mention
    /\*\*\*(?=\S)([\s\S]*?\S)\*\*\*/.source, // 8: bold italic
    /\*\*(?=\S)([\s\S]*?\S)\*\*/.source, // 9: bold
    /(?<!\w)__(?=\S)([\s\S]*?\S)__(?!\w)/.source, // 10: bold
    /~~(?=\S)([\s\S]*?\S)~~/.source, // 11: strikethrough
    /(?<![\w*])\*(?=[^\s*])([\s\S]*?[^\s*])\*(?![\w*])/.source, // 12: italic
  ].join("|"),
  "g",
);

function renderInline(text: string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(INLINE_TOKEN)) {
    out += escapeControl(text.slice(last, match.index));
    out += renderToken(match);
    last = match.index + match[0].length;
  }
  return out + escapeControl(text.slice(last));
}

function renderToken(match: RegExpMatchArray): string {
  const [, escaped, codeDelimiter, code, label, url, autolink, mention, boldItalic, bold, boldUnderscore, strike, italic] = match;
  if (escaped !== undefined) return escapeControl(escaped);
  if (code !== undefined) return `${codeDelimiter}${escapeControl(code)}${codeDelimiter}`;
  if (url !== undefined) return renderLink(label ?? "", url);
  if (autolink !== undefined) return `<${escapeUrl(autolink)}>`;
  if (mention !== undefined) return `<@${mention}>`;
  if (boldItalic !== undefined) return `*_${renderInline(boldItalic)}_*`;
  if (bold !== undefined || boldUnderscore !== undefined) return `*${renderInline(bold ?? boldUnderscore!)}*`;
  if (strike !== undefined) return `~${renderInline(strike)}~`;
  return `_${renderInline(italic!)}_`;
}

function renderLink(label: string, url: string): string {
  // Slack only links absolute URLs; anything else (relative paths, javascript:) stays visible text.
  if (!/^(?:https?|mailto):/i.test(url)) return `${renderInline(label)} (${escapeControl(url)})`;
  // A link label cannot carry formatting in Slack: keep its words only.
  const plainLabel = label.replace(/(\*\*|__|~~|`)/g, "").trim();
  if (!plainLabel || plainLabel === url) return `<${escapeUrl(url)}>`;
  return `<${escapeUrl(url)}|${escapeControl(plainLabel)}>`;
}

/** URLs never contain `<` or `>` here (the patterns exclude them); a raw `|` would end the URL early. */
function escapeUrl(url: string): string {
  return url.replace(/&/g, "&amp;").replace(/\|/g, "%7C");
}
