/**
 * Markdown (as a model writes it) → Telegram HTML (`parse_mode: "HTML"`).
 *
 * Supported: **bold** / __bold__, *italic* / _italic_, ~~strike~~, `inline code`, fenced code
 * blocks (```lang → `<pre><code class="language-lang">`), [links](http…). Everything else —
 * headings, lists, quotes, unbalanced markers, raw HTML — stays as text, with `& < >` escaped,
 * so the output is always well-formed: Telegram rejects a whole message over one stray tag.
 */
export function renderTelegramHtml(markdown: string): string {
  return splitFences(markdown)
    .map((block) => (block.kind === "code" ? renderCodeBlock(block.lines.join("\n"), block.language) : renderInline(block.lines.join("\n"), false)))
    .join("\n");
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, "&quot;");
}

type Block = { kind: "text"; lines: string[] } | { kind: "code"; language: string; lines: string[] };

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;

/** Splits fenced code blocks from the text around them. An unclosed fence runs to the end (as in CommonMark). */
function splitFences(markdown: string): Block[] {
  const blocks: Block[] = [];
  let current: Block = { kind: "text", lines: [] };
  let fence = "";
  for (const line of markdown.split("\n")) {
    if (current.kind === "text") {
      const open = FENCE_OPEN.exec(line);
      if (open) {
        if (current.lines.length > 0) blocks.push(current);
        fence = open[1]!;
        current = { kind: "code", language: open[2]!, lines: [] };
        continue;
      }
    } else {
      const trimmed = line.trim();
      if (trimmed.length >= fence.length && trimmed === fence[0]!.repeat(trimmed.length)) {
        blocks.push(current);
        current = { kind: "text", lines: [] };
        continue;
      }
    }
    current.lines.push(line);
  }
  if (current.kind === "code" || current.lines.length > 0) blocks.push(current);
  return blocks;
}

function renderCodeBlock(code: string, language: string): string {
  // The class is the only way the language reaches Telegram; anything odd in it is dropped.
  const safeLanguage = /^[A-Za-z0-9_+#.-]{1,32}$/.test(language) ? language : "";
  const body = escapeHtml(code);
  return safeLanguage ? `<pre><code class="language-${safeLanguage}">${body}</code></pre>` : `<pre>${body}</pre>`;
}

/** Delimiters, longest first so `**` wins over `*` at the same position. */
const EMPHASIS: ReadonlyArray<{ marker: string; tag: string }> = [
  { marker: "**", tag: "b" },
  { marker: "__", tag: "b" },
  { marker: "~~", tag: "s" },
  { marker: "*", tag: "i" },
  { marker: "_", tag: "i" },
];

const LINK_SCHEMES = /^(https?:\/\/|tg:\/\/|mailto:)/i;
const ESCAPABLE = /[\\`*_~[\]()#>+\-.!|{}]/;

function renderInline(text: string, insideLink: boolean): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\\" && ESCAPABLE.test(text[i + 1] ?? "")) {
      out += escapeHtml(text[i + 1]!);
      i += 2;
      continue;
    }
    if (ch === "`") {
      const span = codeSpanAt(text, i);
      if (span) {
        out += `<code>${escapeHtml(span.content)}</code>`;
        i = span.end;
        continue;
      }
      const run = runLength(text, i, "`");
      out += text.slice(i, i + run);
      i += run;
      continue;
    }
    if (ch === "[" && !insideLink) {
      const link = linkAt(text, i);
      if (link) {
        out += `<a href="${escapeAttribute(link.url)}">${renderInline(link.label, true)}</a>`;
        i = link.end;
        continue;
      }
    }
    const emphasis = emphasisAt(text, i);
    if (emphasis) {
      out += `<${emphasis.tag}>${renderInline(emphasis.inner, insideLink)}</${emphasis.tag}>`;
      i = emphasis.end;
      continue;
    }
    out += escapeHtml(ch);
    i++;
  }
  return out;
}

function runLength(text: string, start: number, ch: string): number {
  let end = start;
  while (text[end] === ch) end++;
  return end - start;
}

/** A backtick run closed by a run of the same length; `content` is verbatim. */
function codeSpanAt(text: string, start: number): { content: string; end: number } | undefined {
  const run = runLength(text, start, "`");
  let search = start + run;
  while (search < text.length) {
    const next = text.indexOf("`", search);
    if (next < 0) return undefined;
    const closing = runLength(text, next, "`");
    if (closing === run) {
      const content = text.slice(start + run, next);
      return content.trim() ? { content, end: next + run } : undefined;
    }
    search = next + closing;
  }
  return undefined;
}

/** `[label](url)` with an allowed scheme; the URL may hold balanced parentheses, not spaces. */
function linkAt(text: string, start: number): { label: string; url: string; end: number } | undefined {
  let depth = 0;
  let close = -1;
  for (let j = start; j < text.length && text[j] !== "\n"; j++) {
    if (text[j] === "[") depth++;
    else if (text[j] === "]" && --depth === 0) {
      close = j;
      break;
    }
  }
  if (close < 0 || text[close + 1] !== "(") return undefined;
  let parens = 0;
  for (let j = close + 2; j < text.length; j++) {
    const c = text[j]!;
    if (/\s/.test(c)) return undefined;
    if (c === "(") parens++;
    else if (c === ")" && parens-- === 0) {
      const url = text.slice(close + 2, j);
      const label = text.slice(start + 1, close);
      return label.trim() && LINK_SCHEMES.test(url) ? { label, url, end: j + 1 } : undefined;
    }
  }
  return undefined;
}

/**
 * An emphasis opened at `start` and closed later in the same paragraph. Opener: followed by a
 * non-space; closer: preceded by a non-space. `_` only counts at word edges (`snake_case` stays
 * text). A closer is taken from the end of its marker run, so `***x***` nests as `<b><i>x</i></b>`.
 */
function emphasisAt(text: string, start: number): { tag: string; inner: string; end: number } | undefined {
  for (const { marker, tag } of EMPHASIS) {
    if (!text.startsWith(marker, start)) continue;
    const after = text[start + marker.length];
    if (after === undefined || /\s/.test(after)) continue;
    // A single marker followed by its twin is the start of a longer run that found no closer.
    if (marker.length === 1 && after === marker) continue;
    if (marker[0] === "_" && isWordChar(text[start - 1])) continue;
    const close = findCloser(text, start + marker.length, marker);
    if (close === undefined) continue;
    return { tag, inner: text.slice(start + marker.length, close), end: close + marker.length };
  }
  return undefined;
}

function findCloser(text: string, from: number, marker: string): number | undefined {
  const ch = marker[0]!;
  let j = from + 1;
  while (j < text.length) {
    const c = text[j]!;
    if (c === "\n" && text[j + 1] === "\n") return undefined;
    if (c === "\\") {
      j += 2;
      continue;
    }
    if (c === "`") {
      const span = codeSpanAt(text, j);
      j = span ? span.end : j + runLength(text, j, "`");
      continue;
    }
    if (c !== ch) {
      j++;
      continue;
    }
    const run = runLength(text, j, ch);
    // A run of two cannot close a single marker (it is a `**` pair of its own).
    const fits = marker.length === 1 ? run !== 2 : run >= marker.length;
    const closeAt = j + run - marker.length;
    if (fits && !/\s/.test(text[closeAt - 1]!) && !(ch === "_" && isWordChar(text[j + run]))) return closeAt;
    j += run;
  }
  return undefined;
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
}
