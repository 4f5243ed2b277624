import { toolError, toolText } from "../tool-result.js";
import { TOOL_ERRORS } from "../tool-errors.js";
import type { AgentTool } from "../types.js";
import { imageFileStem, saveImages } from "./image-generate/image-files.js";
import { checkImageRequest, ImageGenerateParameters } from "./image-generate/image-generate-params.js";
import { type AttemptFailure, failedAttemptsResult, imageModelsList, savedImagesResult } from "./image-generate/image-results.js";
import { requestImages } from "./image-generate/openai-images.js";
import { loadReferenceImages } from "./image-generate/reference-images.js";

/**
 * Creates images from a prompt, or edits workspace images, through the configured image models
 * (ctx.services.imageGeneration; the tool is offered only when one can run). Synchronous here:
 * the call waits for the provider (each attempt within its timeout) and returns the saved files,
 * where OpenClaw starts a background task and wakes the agent later. The models are tried in
 * order until one makes the images; a call's own `model` is the only one tried.
 */
export function createImageGenerateTool(): AgentTool<typeof ImageGenerateParameters> {
  return {
    name: "image_generate",
    description:
      "Create images from a text prompt, or edit workspace images (image, images), with the configured image model. " +
      "The call waits for the images (up to a few minutes), saves them under images/ in the workspace and names the files; " +
      "it does not show or send them: share one with the message tool's file. action list shows the image models set up here.",
    parameters: ImageGenerateParameters,
    async execute(args, ctx, signal) {
      const host = ctx.services.imageGeneration;
      if (!host) return toolError(TOOL_ERRORS.imageGenerationUnavailable("no image model is set up in this runtime"));
      if (args.action === "list") return imageModelsList(host);
      if (args.action === "status") {
        return toolText("No image generation is running: image_generate waits for its images here and returns them with the call.", { running: false });
      }
      const checked = checkImageRequest(args);
      if (!checked.ok) return toolError(TOOL_ERRORS.argumentsInvalid(checked.field, checked.problem));
      const { request } = checked;
      const references = loadReferenceImages(ctx.workspaceDir, request.referencePaths);
      if ("failure" in references) return references.failure;
      const job = { ...request, references: references.images };
      const timeoutMs = request.timeoutMs ?? host.timeoutMs;
      const failures: AttemptFailure[] = [];
      for (const candidate of request.model ? [host.candidateFor(request.model)] : host.candidates) {
        if (candidate.kind === "unusable") {
          failures.push({ ref: candidate.ref, kind: candidate.missingKey ? "auth" : "failed", reason: candidate.reason });
          continue;
        }
        const outcome = await requestImages(candidate, job, timeoutMs, signal);
        if (!outcome.ok) {
          failures.push({ ref: candidate.ref, ...outcome.failure });
          continue;
        }
        const saved = saveImages(ctx.workspaceDir, outcome.images, imageFileStem(request.filename, request.prompt));
        if ("failure" in saved) return saved.failure;
        return savedImagesResult(candidate.ref, request, saved.saved, failures, outcome.revisedPrompt);
      }
      return failedAttemptsResult(failures);
    },
  };
}
