import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import type { ImageDescriber } from "../types.js";
import { describeImage } from "./describe-image.js";
import { imageDescriptionPlan } from "./image-description-plan.js";

/**
 * How view_image serves a turn: `see` for a model that takes images; `describe` for one that does
 * not when an image model is set up (`tools.media` image entries or `agents.defaults.imageModel`)
 * and the turn has a describer; else `off`.
 */
export function viewImageMode(modelSeesImages: boolean, config: OpenClawConfig, hasDescriber: boolean): "see" | "describe" | "off" {
  if (modelSeesImages) return "see";
  return hasDescriber && canDescribeImages(config) ? "describe" : "off";
}

function canDescribeImages(config: OpenClawConfig): boolean {
  let can = describable.get(config);
  if (can === undefined) describable.set(config, (can = imageDescriptionPlan(config).some((attempt) => attempt.kind !== "unusable")));
  return can;
}

/** Per config object: a loaded config never changes (a reload makes a new one), and every turn asks. */
const describable = new WeakMap<OpenClawConfig, boolean>();

/**
 * The view_image tool's describer: each image goes, in a temporary file removed afterwards,
 * through the same attempts as a chat image's description, with the call's prompt in place of the
 * configured one when it gives one.
 */
export function createImageDescriber(config: () => OpenClawConfig, env: NodeJS.ProcessEnv = process.env): ImageDescriber {
  return {
    async describe(image, prompt) {
      const current = config();
      const attempts = imageDescriptionPlan(current).map((attempt) => (prompt && attempt.kind !== "unusable" ? { ...attempt, prompt } : attempt));
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-view-image-"));
      try {
        const file = path.join(dir, `image.${image.mimeType.split("/")[1] ?? "bin"}`);
        fs.writeFileSync(file, image.bytes, { mode: 0o600 });
        const outcome = await describeImage({ path: file, mimeType: image.mimeType, bytes: image.bytes.length }, attempts, { config: current, env });
        return outcome.kind === "described" ? { text: outcome.text, via: outcome.via } : { failures: outcome.failures };
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
