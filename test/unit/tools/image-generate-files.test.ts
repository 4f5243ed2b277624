import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { imageFileStem, saveImages } from "../../../src/agents/tools/image-generate/image-files.js";
import { loadReferenceImages } from "../../../src/agents/tools/image-generate/reference-images.js";
import type { ToolResult } from "../../../src/agents/types.js";
import { ONE_PIXEL_PNG } from "../../helpers/tiny-png.js";
import { errorOf, makeWorkspace } from "./helpers.js";

const PNG = { bytes: ONE_PIXEL_PNG, mimeType: "image/png" };
const JPEG = { bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), mimeType: "image/jpeg" };

function saved(result: ReturnType<typeof saveImages>) {
  if ("failure" in result) throw new Error(`expected the images to be saved: ${JSON.stringify(result.failure)}`);
  return result.saved;
}
function failure(result: { failure: ToolResult } | object): ToolResult {
  if (!("failure" in result)) throw new Error("expected a failure");
  return result.failure;
}

describe("imageFileStem", () => {
  it("takes the filename hint's last part without its extension, else the prompt's first words", () => {
    expect(imageFileStem("Robot Mascot.PNG", "ignored")).toBe("robot-mascot");
    expect(imageFileStem(undefined, "A friendly robot mascot, waving at the camera in the sun")).toBe("a-friendly-robot-mascot-waving-at");
    expect(imageFileStem(undefined, "Café crème")).toBe("cafe-creme");
  });

  it("cannot name a directory or leave images/: only the last component, in a safe alphabet", () => {
    expect(imageFileStem("../../etc/passwd", "p")).toBe("passwd");
    expect(imageFileStem("..\\..\\evil.png", "p")).toBe("evil");
    expect(imageFileStem("/abs/path/.hidden", "p")).toBe("hidden");
    expect(imageFileStem("..", "p")).toBe("image");
    expect(imageFileStem(undefined, "日本語")).toBe("image");
    expect(imageFileStem("x".repeat(200), "p")).toHaveLength(64);
  });
});

describe("saveImages", () => {
  it("writes one image as images/<stem>.<ext>, several numbered, the extension from the bytes", () => {
    const { workspace } = makeWorkspace();
    expect(saved(saveImages(workspace, [PNG], "robot"))).toEqual([{ path: "images/robot.png", mimeType: "image/png", bytes: ONE_PIXEL_PNG.length }]);
    expect(saved(saveImages(workspace, [PNG, JPEG], "pair")).map((s) => s.path)).toEqual(["images/pair-1.png", "images/pair-2.jpg"]);
    expect(fs.readFileSync(path.join(workspace, "images/robot.png")).equals(ONE_PIXEL_PNG)).toBe(true);
  });

  it("never overwrites: a taken name gets -2, -3, …", () => {
    const { workspace } = makeWorkspace();
    fs.mkdirSync(path.join(workspace, "images"));
    fs.writeFileSync(path.join(workspace, "images/robot.png"), "mine");
    expect(saved(saveImages(workspace, [PNG], "robot"))[0]!.path).toBe("images/robot-2.png");
    expect(saved(saveImages(workspace, [PNG], "robot"))[0]!.path).toBe("images/robot-3.png");
    expect(fs.readFileSync(path.join(workspace, "images/robot.png"), "utf8")).toBe("mine");
  });

  it("refuses an images/ that is a symlink out of the workspace, writing nothing there", () => {
    const { workspace, outside } = makeWorkspace();
    fs.symlinkSync(outside, path.join(workspace, "images"));
    expect(errorOf(failure(saveImages(workspace, [PNG], "robot")))).toMatchObject({ error: "PATH_OUTSIDE_WORKSPACE" });
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it("does not write through a link left at the name, even one pointing out of the workspace", () => {
    const { workspace, outside } = makeWorkspace();
    fs.mkdirSync(path.join(workspace, "images"));
    fs.symlinkSync(path.join(outside, "target.png"), path.join(workspace, "images/robot.png"));
    expect(errorOf(failure(saveImages(workspace, [PNG], "robot")))).toMatchObject({ error: "PATH_OUTSIDE_WORKSPACE" });
    expect(fs.existsSync(path.join(outside, "target.png"))).toBe(false);
  });
});

describe("loadReferenceImages", () => {
  it("reads workspace images, typed by their bytes", () => {
    const { workspace } = makeWorkspace();
    fs.writeFileSync(path.join(workspace, "in.png"), ONE_PIXEL_PNG);
    const loaded = loadReferenceImages(workspace, ["in.png"]);
    expect(loaded).toEqual({ images: [{ name: "in.png", mimeType: "image/png", bytes: ONE_PIXEL_PNG }] });
  });

  it("refuses URLs, paths out of the workspace, missing files, and what an edit cannot take", () => {
    const { workspace, outside } = makeWorkspace();
    fs.writeFileSync(path.join(outside, "secret.png"), ONE_PIXEL_PNG);
    fs.writeFileSync(path.join(workspace, "notes.txt"), "text");
    fs.writeFileSync(path.join(workspace, "anim.gif"), Buffer.from("GIF89a....."));
    fs.symlinkSync(path.join(outside, "secret.png"), path.join(workspace, "link.png"));
    const error = (p: string) => errorOf(failure(loadReferenceImages(workspace, [p])));
    expect(error("https://example.com/cat.png")).toMatchObject({ error: "INVALID_ARGUMENT", message: expect.stringContaining("reference images are workspace files") });
    expect(error("data:image/png;base64,AAAA").error).toBe("INVALID_ARGUMENT");
    expect(error("../outside/secret.png").error).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(error("link.png").error).toBe("PATH_OUTSIDE_WORKSPACE");
    expect(error("missing.png").error).toBe("FILE_NOT_FOUND");
    expect(error("notes.txt")).toMatchObject({ error: "NOT_AN_IMAGE", message: '"notes.txt" is not a PNG, JPEG or WebP image.' });
    expect(error("anim.gif").error).toBe("NOT_AN_IMAGE");
  });
});
