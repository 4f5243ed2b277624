import { describe, expect, it } from "vitest";
import { renderTelegramHtml } from "../../../../extensions/telegram/render-html.js";

describe("renderTelegramHtml", () => {
  it("converts bold, italic, strike and inline code", () => {
    expect(renderTelegramHtml("**bold**, __also bold__, *it*, _it_, ~~gone~~ and `x < y`")).toBe(
      "<b>bold</b>, <b>also bold</b>, <i>it</i>, <i>it</i>, <s>gone</s> and <code>x &lt; y</code>",
    );
  });

  it("escapes raw HTML instead of passing it through", () => {
    expect(renderTelegramHtml("<script>alert(1)</script>")).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(renderTelegramHtml("<b>not a tag</b>")).toBe("&lt;b&gt;not a tag&lt;/b&gt;");
  });

  it("escapes ampersands, including ones that already look like entities", () => {
    expect(renderTelegramHtml("Tom & Jerry &amp; 1 > 0")).toBe("Tom &amp; Jerry &amp;amp; 1 &gt; 0");
  });

  it("leaves unbalanced markers as text", () => {
    expect(renderTelegramHtml("**unbalanced")).toBe("**unbalanced");
    expect(renderTelegramHtml("a ** b")).toBe("a ** b");
    expect(renderTelegramHtml("~~never closed")).toBe("~~never closed");
    expect(renderTelegramHtml("`open code")).toBe("`open code");
    expect(renderTelegramHtml("**a*")).toBe("*<i>a</i>");
  });

  it("does not italicize inside words joined by underscores, nor spaced asterisks", () => {
    expect(renderTelegramHtml("call snake_case_name now")).toBe("call snake_case_name now");
    expect(renderTelegramHtml("2 * 3 * 4")).toBe("2 * 3 * 4");
  });

  it("nests emphasis", () => {
    // CommonMark nests `***x***` as emphasis around strong.
    expect(renderTelegramHtml("***both***")).toBe("<i><b>both</b></i>");
    expect(renderTelegramHtml("*a **b** c*")).toBe("<i>a <b>b</b> c</i>");
    expect(renderTelegramHtml("**bold *it***")).toBe("<b>bold <i>it</i></b>");
  });

  it("keeps markers inside code spans literal", () => {
    expect(renderTelegramHtml("**a `**` b**")).toBe("<b>a <code>**</code> b</b>");
    expect(renderTelegramHtml("``a ` b``")).toBe("<code>a ` b</code>");
  });

  it("honours backslash escapes", () => {
    expect(renderTelegramHtml("\\*not italic\\*")).toBe("*not italic*");
  });

  it("does not carry emphasis across paragraphs", () => {
    expect(renderTelegramHtml("**a\n\nb**")).toBe("**a\n\nb**");
    expect(renderTelegramHtml("**a\nb**")).toBe("<b>a\nb</b>");
  });

  it("renders fenced code blocks with their language, escaped verbatim", () => {
    expect(renderTelegramHtml("Look:\n```ts\nconst ok = a < b && **c**;\n```\ndone")).toBe(
      'Look:\n<pre><code class="language-ts">const ok = a &lt; b &amp;&amp; **c**;</code></pre>\ndone',
    );
    expect(renderTelegramHtml("```\nplain\n```")).toBe("<pre>plain</pre>");
  });

  it("drops a language name that could break out of the class attribute", () => {
    expect(renderTelegramHtml('```x"onclick\ncode\n```')).toBe("<pre>code</pre>");
  });

  it("runs an unclosed fence to the end of the text", () => {
    expect(renderTelegramHtml("```py\nprint(1)\n<tail>")).toBe('<pre><code class="language-py">print(1)\n&lt;tail&gt;</code></pre>');
  });

  it("renders links and escapes quotes and ampersands in the URL", () => {
    expect(renderTelegramHtml('[docs](https://e.com/?a=1&b="2")')).toBe('<a href="https://e.com/?a=1&amp;b=&quot;2&quot;">docs</a>');
    expect(renderTelegramHtml("[**bold** link](https://x.y/(a))")).toBe('<a href="https://x.y/(a)"><b>bold</b> link</a>');
  });

  it("keeps links with other schemes, or with spaces, as text", () => {
    expect(renderTelegramHtml("[x](javascript:alert(1))")).toBe("[x](javascript:alert(1))");
    expect(renderTelegramHtml("[x](https://a b)")).toBe("[x](https://a b)");
  });

  it("renders headings bold, list items with bullets or numbers, quotes as blockquote", () => {
    expect(renderTelegramHtml("# Title\n- item\n> quoted")).toBe("<b>Title</b>\n• item\n<blockquote>quoted</blockquote>");
    expect(renderTelegramHtml("3. third\n4. fourth\n   - inner <x>")).toBe("3. third\n4. fourth\n  • inner &lt;x&gt;");
  });

  it("keeps tables and bare URLs as escaped text, and `*` between digits as arithmetic", () => {
    expect(renderTelegramHtml("| a | b |\n|---|---|\n| 1 | <2> |")).toBe("| a | b |\n|---|---|\n| 1 | &lt;2&gt; |");
    expect(renderTelegramHtml("see https://example.com/a_b_c and 2*3*4")).toBe("see https://example.com/a_b_c and 2*3*4");
  });
});
