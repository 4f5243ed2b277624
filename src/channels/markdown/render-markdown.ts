import { Lexer, type Token, type Tokens } from "marked";

/**
 * How one channel writes each Markdown construct. Every hook returns finished channel text; the
 * walker has already rendered `inner` (the construct's children) with the same rules, and passes
 * text content raw so each channel escapes it its own way.
 */
export interface MarkdownRules {
  /** Plain text (also raw HTML, which is never passed through, and anything without a hook). */
  text(text: string): string;
  strong(inner: string): string;
  em(inner: string): string;
  del(inner: string): string;
  codespan(code: string): string;
  /** A fenced or indented code block; `language` as written after the fence, maybe empty. */
  codeBlock(code: string, language: string): string;
  /** `[label](href)` or `<href>`; `plainLabel` is the label's text without its formatting. */
  link(href: string, inner: string, plainLabel: string, source: string): string;
  heading(inner: string, plainText: string): string;
  blockquote(inner: string): string;
  /** One list item's first line; nested lists and later paragraphs follow, indented. */
  listItem(inner: string, marker: string): string;
}

/**
 * Markdown as a model writes it → channel text, through marked's CommonMark + GFM lexer. One
 * parser for every channel; each channel only says how it writes a construct (`MarkdownRules`).
 * Blank lines and line breaks between blocks are kept as written. Two rules hold for every
 * channel: a bare URL stays text (the apps link it themselves), and `*` between two word
 * characters (`2*3*4`) is arithmetic, not emphasis.
 */
export function renderMarkdown(markdown: string, rules: MarkdownRules): string {
  return renderBlocks(Lexer.lex(markdown.replace(/\r\n?/g, "\n"), { gfm: true }), rules, "");
}

function renderBlocks(tokens: readonly Token[], rules: MarkdownRules, indent: string): string {
  let out = "";
  for (const token of tokens) {
    if (token.type === "space") {
      out += token.raw.replace(/[^\n]/g, "");
      continue;
    }
    out += renderBlock(token, rules, indent) + trailingNewlines(token.raw);
  }
  return out;
}

function renderBlock(token: Token, rules: MarkdownRules, indent: string): string {
  switch (token.type) {
    case "paragraph":
    case "text":
      return "tokens" in token && token.tokens ? renderInline(token.tokens, rules) : rules.text(token.raw);
    case "heading":
      return rules.heading(renderInline(token.tokens ?? [], rules), plainText(token.tokens ?? []));
    case "code":
      return rules.codeBlock(token.text, (token as Tokens.Code).lang ?? "");
    case "blockquote":
      return rules.blockquote(renderBlocks(token.tokens ?? [], rules, "").replace(/\n+$/, ""));
    case "list":
      return renderList(token as Tokens.List, rules, indent);
    default:
      return rules.text(token.raw.replace(/\n+$/, ""));
  }
}

function renderList(list: Tokens.List, rules: MarkdownRules, indent: string): string {
  const start = typeof list.start === "number" ? list.start : 1;
  return list.items
    .map((item, i) => {
      const marker = list.ordered ? `${start + i}.` : "•";
      const [first, ...rest] = item.tokens;
      const head = first ? renderBlock(first, rules, indent) : "";
      const tail = rest
        .filter((token) => token.type !== "space")
        .map((token) => (token.type === "list" ? renderList(token as Tokens.List, rules, `${indent}  `) : `${indent}  ${renderBlock(token, rules, `${indent}  `)}`));
      return [indent + rules.listItem(head, marker), ...tail].join("\n");
    })
    .join("\n");
}

function renderInline(tokens: readonly Token[], rules: MarkdownRules): string {
  return tokens.map((token, i) => renderInlineToken(token, rules, tokens[i - 1], tokens[i + 1])).join("");
}

function renderInlineToken(token: Token, rules: MarkdownRules, before: Token | undefined, after: Token | undefined): string {
  const inner = () => renderInline(("tokens" in token && token.tokens) || [], rules);
  switch (token.type) {
    case "text":
      return "tokens" in token && token.tokens ? inner() : rules.text(token.text);
    case "escape":
      return rules.text(token.text);
    case "strong":
    case "em":
      if (isArithmetic(token, before, after)) return rules.text(token.raw);
      return token.type === "strong" ? rules.strong(inner()) : rules.em(inner());
    case "del":
      return rules.del(inner());
    case "codespan":
      return rules.codespan(token.text);
    case "br":
      return "\n";
    case "link": {
      const link = token as Tokens.Link;
      // A bare URL (GFM autolink without `<…>`) is left as text.
      if (link.raw === link.href && !link.raw.startsWith("<")) return rules.text(link.raw);
      return rules.link(link.href, inner(), plainText(link.tokens ?? []), link.raw);
    }
    case "image":
      return rules.text(token.raw);
    default:
      return rules.text(token.raw);
  }
}

/** `2*3*4`: an emphasis made of `*` with a letter or digit right outside both ends. */
function isArithmetic(token: Token, before: Token | undefined, after: Token | undefined): boolean {
  if (!token.raw.startsWith("*")) return false;
  const wordChar = /[\p{L}\p{N}]/u;
  return wordChar.test(before?.raw.at(-1) ?? "") && wordChar.test(after?.raw[0] ?? "");
}

/** A construct's text with its formatting dropped (labels and headings in channels without nesting). */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if ("tokens" in token && token.tokens && token.type !== "codespan") return plainText(token.tokens);
      return "text" in token && typeof token.text === "string" ? token.text : token.raw;
    })
    .join("");
}

function trailingNewlines(raw: string): string {
  return /\n*$/.exec(raw)![0];
}
