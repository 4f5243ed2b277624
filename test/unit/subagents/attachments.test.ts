import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeAttachments, MAX_ATTACHMENT_BYTES, writeAttachments } from "../../../src/agents/subagents/attachments.js";
import { tempStateDir } from "./helpers.js";

describe("sessions_spawn attachments", () => {
  it("decodes utf8 and base64 and writes them under the mount path in the workspace", () => {
    const workspace = tempStateDir();
    const decoded = decodeAttachments([
      { name: "notes.txt", content: "héllo" },
      { name: "data.bin", content: Buffer.from([1, 2, 3]).toString("base64"), encoding: "base64", mimeType: "application/octet-stream" },
    ]);
    if (!Array.isArray(decoded)) throw new Error(decoded.message);
    const written = writeAttachments(workspace, "inbox/run1", decoded);
    expect(written).toEqual([
      { path: path.join("inbox", "run1", "notes.txt"), bytes: 6 },
      { path: path.join("inbox", "run1", "data.bin"), bytes: 3, mimeType: "application/octet-stream" },
    ]);
    expect(fs.readFileSync(path.join(workspace, "inbox/run1/notes.txt"), "utf8")).toBe("héllo");
    expect([...fs.readFileSync(path.join(workspace, "inbox/run1/data.bin"))]).toEqual([1, 2, 3]);
  });

  it("refuses folders in names, duplicates, bad base64 and files over the caps", () => {
    expect(decodeAttachments([{ name: "../evil", content: "x" }])).toMatchObject({ code: "INVALID_ATTACHMENTS" });
    expect(
      decodeAttachments([
        { name: "a", content: "x" },
        { name: "a", content: "y" },
      ]),
    ).toMatchObject({ message: 'two attachments are named "a".' });
    expect(decodeAttachments([{ name: "a", content: "!!!", encoding: "base64" }])).toMatchObject({ message: 'attachment "a" is not valid base64.' });
    expect(decodeAttachments([{ name: "big", content: "x".repeat(MAX_ATTACHMENT_BYTES + 1) }])).toMatchObject({ code: "INVALID_ATTACHMENTS" });
    expect(decodeAttachments(Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, content: "" })))).toMatchObject({ message: "51 attachments; at most 50 are accepted." });
    const sixMb = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}`, content: "x".repeat(MAX_ATTACHMENT_BYTES) }));
    expect(decodeAttachments(sixMb)).toMatchObject({ message: expect.stringMatching(/exceed .* bytes in total/) });
  });

  it("refuses a mount path outside the workspace, or the workspace root itself", () => {
    const workspace = tempStateDir();
    const decoded = decodeAttachments([{ name: "a.txt", content: "x" }]) as never;
    expect(writeAttachments(workspace, "../outside", decoded)).toMatchObject({ code: "INVALID_ATTACHMENTS" });
    expect(writeAttachments(workspace, ".", decoded)).toMatchObject({ code: "INVALID_ATTACHMENTS" });
    expect(fs.existsSync(path.join(workspace, "..", "outside"))).toBe(false);
  });
});
