import { describe, expect, it } from "vitest";
import { loadBootstrapFiles } from "../../../src/agents/context/bootstrap-files.js";
import { truncateFileText } from "../../../src/agents/context/truncate-file-text.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

const roomy = { maxCharsPerFile: 20_000, maxTotalChars: 60_000 };

describe("loadBootstrapFiles", () => {
  it("returns files in the fixed order, skipping missing and blank ones", async () => {
    const dir = makeTempDir();
    writeFile(dir, "MEMORY.md", "facts\n");
    writeFile(dir, "USER.md", "user\n");
    writeFile(dir, "AGENTS.md", "\uFEFFrules\n\n\n");
    writeFile(dir, "SOUL.md", "  \n\t\n");
    writeFile(dir, "IDENTITY.md", "me");
    writeFile(dir, "notes.md", "not a bootstrap file");
    const loaded = await loadBootstrapFiles(dir, roomy);
    expect(loaded.files.map((f) => f.name)).toEqual(["AGENTS.md", "IDENTITY.md", "USER.md", "MEMORY.md"]);
    expect(loaded.files[0]).toEqual({ name: "AGENTS.md", content: "rules", truncated: false, originalChars: 5 });
    expect(loaded.warnings).toEqual([]);
  });

  it("falls back to the older lowercase memory.md", async () => {
    const dir = makeTempDir();
    writeFile(dir, "memory.md", "old spelling");
    const loaded = await loadBootstrapFiles(dir, roomy);
    expect(loaded.files.map((f) => f.content)).toEqual(["old spelling"]);
    expect(["MEMORY.md", "memory.md"]).toContain(loaded.files[0]!.name);
  });

  it("returns nothing for a missing workspace", async () => {
    expect(await loadBootstrapFiles("/definitely/not/here", roomy)).toEqual({ files: [], warnings: [] });
  });

  it("cuts a file over the per-file cap, keeping start and end, with a marker and a warning", async () => {
    const dir = makeTempDir();
    const body = `START${"a".repeat(3000)}${"z".repeat(2000)}END`;
    writeFile(dir, "AGENTS.md", body);
    const loaded = await loadBootstrapFiles(dir, { maxCharsPerFile: 1000, maxTotalChars: 60_000 });
    const file = loaded.files[0]!;
    expect(file.truncated).toBe(true);
    expect(file.originalChars).toBe(body.length);
    expect(file.content.length).toBeLessThanOrEqual(1000);
    expect(file.content.startsWith("START")).toBe(true);
    expect(file.content.endsWith("END")).toBe(true);
    const marker = /\n\[… truncated: (\d+) of 5008 chars shown; read AGENTS\.md for the rest\]\n/.exec(file.content);
    expect(marker).not.toBeNull();
    // The count in the marker is exactly what the model sees of the file.
    expect(file.content.length - marker![0].length).toBe(Number(marker![1]));
    expect(loaded.warnings).toEqual([expect.stringMatching(/^AGENTS\.md: truncated to \d+ of 5008 chars \(bootstrapMaxChars 1000\)$/)]);
  });

  it("enforces the total budget: later files are cut, then left out, each with a warning", async () => {
    const dir = makeTempDir();
    writeFile(dir, "AGENTS.md", "a".repeat(600));
    writeFile(dir, "SOUL.md", "s".repeat(600));
    writeFile(dir, "USER.md", "u".repeat(600));
    const loaded = await loadBootstrapFiles(dir, { maxCharsPerFile: 20_000, maxTotalChars: 1000 });
    expect(loaded.files.map((f) => [f.name, f.truncated])).toEqual([
      ["AGENTS.md", false],
      ["SOUL.md", true],
    ]);
    const total = loaded.files.reduce((sum, f) => sum + f.content.length, 0);
    expect(total).toBeLessThanOrEqual(1000);
    expect(loaded.files[1]!.content).toContain("read SOUL.md for the rest");
    expect(loaded.warnings).toEqual([
      expect.stringMatching(/^SOUL\.md: truncated to \d+ of 600 chars \(bootstrapTotalMaxChars 1000\)$/),
      "USER.md: left out, bootstrapTotalMaxChars (1000) is used up",
    ]);
  });

  it("leaves a file out when the per-file cap cannot even hold the marker", async () => {
    const dir = makeTempDir();
    writeFile(dir, "AGENTS.md", "x".repeat(500));
    const loaded = await loadBootstrapFiles(dir, { maxCharsPerFile: 10, maxTotalChars: 60_000 });
    expect(loaded.files).toEqual([]);
    expect(loaded.warnings[0]).toMatch(/^AGENTS\.md: left out, bootstrapMaxChars \(10\) is too small/);
  });
});

describe("truncateFileText", () => {
  it("never splits a surrogate pair", () => {
    const text = "😀".repeat(400);
    for (const max of [200, 201, 202, 203]) {
      const cut = truncateFileText(text, max, "X.md")!;
      expect(cut.text.length).toBeLessThanOrEqual(max);
      expect(cut.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });
});
