import { htmlToText } from "./html-to-text.js";

export type ExtractMode = "markdown" | "text";

export interface ExtractedPage {
  text: string;
  title?: string;
  /** `readability`: the page's main content; `html`: the whole page (Readability off, or it found no article). */
  extractor: "readability" | "html";
}

/** Less main content than this (characters of text) is no article: the whole page says more. */
const MIN_ARTICLE_CHARS = 100;
/** Never content, in any mode. */
const INVISIBLE = new Set(["script", "style", "noscript", "template", "svg", "iframe", "object", "head"]);

/**
 * An HTML page as readable content: with `readability`, Mozilla's Readability picks the main
 * content (navigation, footers and sidebars dropped), else, or when it finds no article, the
 * whole page is used. `markdown` keeps headings, links, lists, emphasis and code (turndown);
 * `text` is plain text. The DOM (linkedom) and both libraries load on the first page.
 */
export async function extractHtml(html: string, pageUrl: string, opts: { readability: boolean; mode: ExtractMode }): Promise<ExtractedPage> {
  try {
    return await extractWithDom(html, pageUrl, opts);
  } catch {
    // Markup the DOM libraries cannot take is still read, as plain text of the whole page.
    return { text: htmlToText(html), extractor: "html" };
  }
}

async function extractWithDom(html: string, pageUrl: string, opts: { readability: boolean; mode: ExtractMode }): Promise<ExtractedPage> {
  const { parseHTML } = await import("linkedom");
  let content = html;
  let title: string | undefined;
  let extractor: ExtractedPage["extractor"] = "html";
  if (opts.readability) {
    const article = await readArticle(parseHTML, html, pageUrl);
    if (article) {
      content = article.content;
      title = article.title || undefined;
      extractor = "readability";
    }
  }
  if (opts.mode === "text") {
    const text = htmlToText(content);
    return { text: title && extractor === "readability" ? `${title}\n\n${text}` : text, title, extractor };
  }
  const { default: TurndownService } = await import("turndown");
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "_" });
  turndown.remove((node) => INVISIBLE.has(node.nodeName.toLowerCase()));
  const { document } = parseHTML(extractor === "readability" ? `<!doctype html><html><body>${content}</body></html>` : html);
  const pageTitle = title ?? document.querySelector("title")?.textContent?.trim();
  const body = turndown.turndown(document.body as unknown as HTMLElement).trim();
  return { text: pageTitle ? `# ${pageTitle}\n\n${body}` : body, ...(pageTitle ? { title: pageTitle } : {}), extractor };
}

type ParseHtml = typeof import("linkedom")["parseHTML"];

async function readArticle(parseHTML: ParseHtml, html: string, pageUrl: string): Promise<{ title: string; content: string } | undefined> {
  const { Readability } = await import("@mozilla/readability");
  const { document } = parseHTML(html);
  // Relative links in the article resolve against the page's address.
  if (!document.querySelector("base[href]") && document.head) {
    const base = document.createElement("base");
    base.setAttribute("href", pageUrl);
    document.head.prepend(base);
  }
  try {
    const article = new Readability(document as unknown as Document).parse();
    if (!article?.content || (article.textContent ?? "").trim().length < MIN_ARTICLE_CHARS) return undefined;
    return { title: article.title ?? "", content: article.content };
  } catch {
    // A page Readability cannot walk is read whole.
    return undefined;
  }
}
