import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extractSections, postCompactionRefresh } from "../../../src/agents/context/post-compaction-context.js";

const workspaceWith = (agents?: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "post-compaction-"));
  if (agents !== undefined) fs.writeFileSync(path.join(dir, "AGENTS.md"), agents);
  return dir;
};
const now = new Date(Date.UTC(2026, 11, 4, 23, 30));
const options = (sections: string[]) => ({ sections, maxChars: 1800, now, timeZone: "Asia/Tokyo" });

describe("post-compaction refresh", () => {
  it("H2/H3 sections by name, to the next H2/H3 heading of the same or a higher level (H1 and H4 are text)", () => {
    const text = "## A\na1\n### A.1\na2\n## B\nb1\n#### deep\nb2\n# Top\nt";
    expect(extractSections(text, ["a", "B", "missing"])).toEqual([
      { name: "a", text: "## A\na1\n### A.1\na2" },
      { name: "B", text: "## B\nb1\n#### deep\nb2\n# Top\nt" },
    ]);
  });

  it("the default names fall back to the older template's sections; today's date is the user's", async () => {
    const refresh = await postCompactionRefresh(workspaceWith("## Every Session\nRead notes/YYYY-MM-DD.md\n## Safety\nAsk first."), options(["Session Startup", "Red Lines"]));
    expect(refresh).toContain("Critical rules from AGENTS.md:\n\n## Every Session\nRead notes/2026-12-05.md\n\n## Safety\nAsk first.");
    expect(refresh).toContain("Run your Session Startup sequence");
  });

  it("other names are named in the instruction", async () => {
    const refresh = await postCompactionRefresh(workspaceWith("## Rules\nBe kind."), options(["Rules"]));
    expect(refresh).toContain("Re-read the sections injected below (Rules)");
    expect(refresh).toContain("Injected sections from AGENTS.md (Rules):\n\n## Rules\nBe kind.");
  });

  it("nothing without sections configured, without AGENTS.md, or without the sections", async () => {
    expect(await postCompactionRefresh(workspaceWith("## Rules\nx"), options([]))).toBeUndefined();
    expect(await postCompactionRefresh(workspaceWith(), options(["Rules"]))).toBeUndefined();
    expect(await postCompactionRefresh(workspaceWith("## Other\nx"), options(["Rules"]))).toBeUndefined();
  });
});
