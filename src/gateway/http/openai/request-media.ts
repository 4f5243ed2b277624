import { fileLimitsFrom, type FileLimits, loadFiles } from "./file-loader.js";
import type { FileSource } from "./file-parts.js";
import { withFiles } from "../../../agents/media/file-prompt.js";
import { imageLimitsFrom, type ImageLimits, type LoadedImage, loadImages } from "./image-loader.js";
import type { ImageSource } from "./image-sources.js";
import { OpenAiRequestError } from "./openai-errors.js";
import { GUARDED_NETWORK, type UrlNetwork } from "./url-part-fetch.js";

/** `gateway.http.endpoints.<endpoint>`'s image and file settings, defaults filled. */
export interface MediaLimits {
  images: ImageLimits;
  files: FileLimits;
  /** The most image and file parts of one request fetched by URL. */
  maxUrlParts: number;
  /** Where maxUrlParts is set, named in refusals. */
  maxUrlPartsKey: string;
}

interface EndpointConfig {
  images?: Parameters<typeof imageLimitsFrom>[0];
  files?: Parameters<typeof fileLimitsFrom>[0];
  maxUrlParts?: number;
}

export function mediaLimitsFrom(config: EndpointConfig | undefined, endpoint: "chatCompletions" | "responses"): MediaLimits {
  return {
    images: imageLimitsFrom(config?.images, endpoint),
    files: fileLimitsFrom(config?.files, endpoint),
    maxUrlParts: config?.maxUrlParts ?? 8,
    maxUrlPartsKey: `gateway.http.endpoints.${endpoint}.maxUrlParts`,
  };
}

/**
 * A request's images, loaded, and its system text with its files' text after it. Nothing is
 * fetched when the request names more URLs than `maxUrlParts` allows.
 */
export async function loadRequestMedia(
  request: { images: readonly ImageSource[]; files: readonly FileSource[]; extraSystemPrompt?: string },
  limits: MediaLimits,
  network: UrlNetwork = GUARDED_NETWORK,
): Promise<{ images: LoadedImage[]; extraSystemPrompt?: string }> {
  const urls = [...request.images, ...request.files].filter((source) => source.kind === "url");
  if (urls.length > limits.maxUrlParts) {
    throw new OpenAiRequestError(
      `The request names ${urls.length} image and file URLs; at most ${limits.maxUrlParts} are fetched (${limits.maxUrlPartsKey}).`,
      urls[limits.maxUrlParts]!.param,
    );
  }
  const images = request.images.length > 0 ? await loadImages(request.images, limits.images, network) : [];
  const files = request.files.length > 0 ? await loadFiles(request.files, limits.files, network) : [];
  const extraSystemPrompt = withFiles(request.extraSystemPrompt, files, limits.files.maxChars);
  // A PDF's pages rendered as images follow the request's own images.
  for (const file of files) if (file.images) images.push(...file.images);
  return { images, ...(extraSystemPrompt !== undefined ? { extraSystemPrompt } : {}) };
}
