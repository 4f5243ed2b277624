import { describe, expect, it } from "vitest";
import { markdownToMrkdwn } from "../../../../extensions/slack/mrkdwn.js";

describe("markdownToMrkdwn", () => {
  it.each([
    ["**bold**", "*bold*"],
    ["__bold__", "*bold*"],
    ["*italic*", "_italic_"],
    ["_italic_", "_italic_"],
    ["***both***", "_*both*_"],
    ["~~gone~~", "~gone~"],
    ["**bold with *italic* inside**", "*bold with _italic_ inside*"],
    ["[the docs](https://example.com/docs)", "<https://example.com/docs|the docs>"],
    ["[https://example.com](https://example.com)", "<https://example.com>"],
    ["<https://example.com/x>", "<https://example.com/x>"],
    ["[Foo (bar)](https://en.wikipedia.org/wiki/Foo_(bar))", "<https://en.wikipedia.org/wiki/Foo_(bar)|Foo (bar)>"],
    ["# Heading", "*Heading*"],
    ["### Heading with **bold** ###", "*Heading with bold*"],
    ["- one\n* two\n  + nested", "• one\n• two\n  • nested"],
    ["> quoted **text**", "&gt; quoted *text*"],
    ["> two\n> lines", "&gt; two\n&gt; lines"],
    ["1. first\n2. second", "1. first\n2. second"],
    ["para one\n\npara two", "para one\n\npara two"],
  ])("%j → %j", (markdown, mrkdwn) => {
    expect(markdownToMrkdwn(markdown)).toBe(mrkdwn);
  });

  it("leaves inline code and code fences alone, dropping only the language tag", () => {
    expect(markdownToMrkdwn("run `npm **test**` now")).toBe("run `npm **test**` now");
    expect(markdownToMrkdwn("```ts\nconst a = **b**;\n# not a heading\n```\n**after**")).toBe("```\nconst a = **b**;\n# not a heading\n```\n*after*");
  });

  it("closes a fence the model forgot to close", () => {
    expect(markdownToMrkdwn("```\ncode")).toBe("```\ncode\n```");
  });

  it("escapes &, < and > in plain text", () => {
    expect(markdownToMrkdwn("a < b && c > d")).toBe("a &lt; b &amp;&amp; c &gt; d");
  });

  it("escapes & in link URLs but not the <url|text> it builds", () => {
    expect(markdownToMrkdwn("[q](https://example.com/?a=1&b=2)")).toBe("<https://example.com/?a=1&amp;b=2|q>");
  });

  it("keeps code readable: Slack shows &lt; as < inside code too", () => {
    expect(markdownToMrkdwn("`if (a < b)`")).toBe("`if (a &lt; b)`");
  });

  it("leaves math and snake_case alone", () => {
    expect(markdownToMrkdwn("2*3*4 = 24, my_var_name")).toBe("2*3*4 = 24, my_var_name");
  });

  it("keeps plain user mentions so the model can address people", () => {
    expect(markdownToMrkdwn("thanks <@U024BE7LH>!")).toBe("thanks <@U024BE7LH>!");
  });

  describe("hostile model output", () => {
    it.each([
      ["<!channel> wake up", "&lt;!channel&gt; wake up"],
      ["<!here>", "&lt;!here&gt;"],
      ["<!everyone|everyone>", "&lt;!everyone|everyone&gt;"],
      ["<!subteam^S012345|@admins>", "&lt;!subteam^S012345|@admins&gt;"],
      ["<@U024BE7LH|spoofed>", "&lt;@U024BE7LH|spoofed&gt;"],
      ["**<!channel>**", "*&lt;!channel&gt;*"],
      ["`<!channel>`", "`&lt;!channel&gt;`"],
      ["```\n<!channel>\n```", "```\n&lt;!channel&gt;\n```"],
    ])("%j cannot ping", (markdown, mrkdwn) => {
      expect(markdownToMrkdwn(markdown)).toBe(mrkdwn);
    });

    it("cannot smuggle a control sequence through a link label or URL", () => {
      expect(markdownToMrkdwn("[<!channel>](https://example.com)")).toBe("<https://example.com|&lt;!channel&gt;>");
      expect(markdownToMrkdwn("<https://example.com|<!channel>>")).toBe("&lt;https://example.com|&lt;!channel&gt;&gt;");
      expect(markdownToMrkdwn("<https://evil.example|Click me>")).toBe("&lt;https://evil.example|Click me&gt;");
    });

    it("does not turn non-web links into Slack links", () => {
      expect(markdownToMrkdwn("[click](javascript:alert(1))")).toBe("click (javascript:alert(1))");
    });
  });
});
