import { isSelfHosted } from "../../../models/local-base-url.js";
import { apiKeyEnvVar, redactSecrets } from "../../../models/index.js";
import { secretHeaderValues } from "../../../models/model-errors.js";
import type { ImageModelCandidate } from "../../types.js";
import { formatTimeout, postToProvider, readCapped } from "../../media/provider-post.js";
import { guardedGet } from "../guarded-get.js";
import { formatBytes, sniffImageMimeType } from "../read.js";
import { WEB_FETCH_MAX_REDIRECTS } from "../web-fetch.js";

/** The largest image one answer may bring (a 4K PNG is well under it). */
export const GENERATED_IMAGE_MAX_BYTES = 32 * 1024 * 1024;
/** Of a failed answer, only the start is read: enough for the error's JSON. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;
/** What the provider's own message may add to an error. */
const PROVIDER_MESSAGE_MAX_CHARS = 300;
/** Error codes OpenAI (and servers copying it) give a prompt its safety system refused. */
const REFUSAL_CODES = new Set(["moderation_blocked", "content_policy_violation", "content_filter"]);

/** The settings of one call as the provider takes them, checked and defaulted by the tool (image-generate-params.ts). */
export interface ImageSettings {
  prompt: string;
  count: number;
  size?: string;
  quality?: string;
  outputFormat?: string;
  background?: string;
  moderation?: string;
  outputCompression?: number;
  user?: string;
}

/** What one call asks of the provider. */
export interface ImageJob extends ImageSettings {
  /** Reference images: with any, the request is an edit (`/images/edits`). */
  references: readonly { name: string; mimeType: string; bytes: Buffer }[];
}

export interface GeneratedImage {
  bytes: Buffer;
  mimeType: string;
}

/**
 * Why an attempt gave no images: `refused` (the provider's content policy turned the prompt
 * down), `auth` (no key, or the key was refused), `timeout`, or `failed` (any other HTTP error, an
 * unreachable host, an answer without images). `reason` is safe to show: never the key.
 */
export interface ImageFailure {
  kind: "refused" | "auth" | "timeout" | "failed";
  reason: string;
}

export type ImageOutcome = { ok: true; images: GeneratedImage[]; revisedPrompt?: string } | { ok: false; failure: ImageFailure };

type Provider = Extract<ImageModelCandidate, { kind: "provider" }>;

/**
 * OpenAI's Images API: `POST <baseUrl>/images/generations` (JSON), or `/images/edits`
 * (multipart, the reference images as `image` / `image[]`) when the job has references. Images
 * come back as `b64_json` or as a `url`, which is downloaded through web_fetch's address guard:
 * private addresses only when the provider's own base URL is on this machine or the LAN. The
 * timeout covers the request and the downloads; the run's signal stops both (and rejects).
 */
export async function requestImages(provider: Provider, job: ImageJob, timeoutMs: number, signal: AbortSignal): Promise<ImageOutcome> {
  const deadline = Date.now() + timeoutMs;
  const secrets = [provider.apiKey, ...secretHeaderValues(provider.headers as Record<string, string> | undefined)];
  const timedOut = (): ImageOutcome => ({ ok: false, failure: { kind: "timeout", reason: `no images within ${formatTimeout(timeoutMs)} (timeoutMs)` } });
  const url = `${provider.baseUrl.replace(/\/+$/, "")}/images/${job.references.length > 0 ? "edits" : "generations"}`;
  const posted = await postToProvider(url, { body: requestBody(provider.model, job), headers: requestHeaders(provider, job) }, { signal, timeoutMs, secrets });
  if (!posted.ok) return posted.kind === "timeout" ? timedOut() : failed(posted.reason);
  const { response, signal: both, timedOut: deadlinePassed } = posted;
  try {
    if (!response.ok) return { ok: false, failure: httpFailure(provider, response.status, await readCapped(response, ERROR_BODY_MAX_BYTES), secrets) };
    const body = parseJson(await readCapped(response, answerLimit(job.count)));
    const data = Array.isArray(body?.data) ? (body.data as Record<string, unknown>[]) : [];
    if (data.length === 0) return failed("the answer held no images");
    const images: GeneratedImage[] = [];
    for (const item of data.slice(0, job.count)) {
      const image = await imageOf(item, provider, deadline, both);
      if ("failure" in image) {
        if (signal.aborted) throw signal.reason;
        return deadlinePassed() || Date.now() >= deadline ? timedOut() : { ok: false, failure: image.failure };
      }
      images.push(image);
    }
    const revised = data.find((item) => typeof item.revised_prompt === "string")?.revised_prompt as string | undefined;
    return { ok: true, images, ...(revised ? { revisedPrompt: revised } : {}) };
  } catch (error) {
    if (signal.aborted) throw error;
    if (deadlinePassed()) return timedOut();
    return failed(redactSecrets((error as Error).message, secrets));
  }
}

function requestHeaders(provider: Provider, job: ImageJob): Record<string, string> {
  return {
    ...provider.headers,
    ...(job.references.length > 0 ? {} : { "content-type": "application/json" }),
    ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}),
  };
}

/** The job's fields in OpenAI's names; only those the call set, so a server that lacks one is not sent it. */
function requestFields(model: string, job: ImageJob): Record<string, string | number> {
  const fields: Record<string, string | number | undefined> = {
    model,
    prompt: job.prompt,
    n: job.count,
    size: job.size,
    quality: job.quality,
    output_format: job.outputFormat,
    background: job.background,
    moderation: job.moderation,
    output_compression: job.outputCompression,
    user: job.user,
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string | number] => entry[1] !== undefined));
}

function requestBody(model: string, job: ImageJob): string | FormData {
  const fields = requestFields(model, job);
  if (job.references.length === 0) return JSON.stringify(fields);
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  // One reference is `image`; several are `image[]`, as OpenAI's edits endpoint takes an array.
  const field = job.references.length === 1 ? "image" : "image[]";
  for (const { bytes, mimeType, name } of job.references) {
    // A view of the file's bytes (a Buffer may sit in a shared pool), not a copy.
    form.append(field, new Blob([new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length)], { type: mimeType }), name);
  }
  return form;
}

async function imageOf(item: Record<string, unknown>, provider: Provider, deadline: number, signal: AbortSignal): Promise<GeneratedImage | { failure: ImageFailure }> {
  let bytes: Buffer;
  if (typeof item.b64_json === "string") {
    bytes = Buffer.from(item.b64_json, "base64");
  } else if (typeof item.url === "string") {
    const downloaded = await download(item.url, provider, deadline, signal);
    if ("failure" in downloaded) return downloaded;
    bytes = downloaded.bytes;
  } else {
    return { failure: { kind: "failed", reason: "an image in the answer had neither b64_json nor url" } };
  }
  if (bytes.length > GENERATED_IMAGE_MAX_BYTES) return { failure: { kind: "failed", reason: `an image was over ${formatBytes(GENERATED_IMAGE_MAX_BYTES)}` } };
  const mimeType = sniffImageMimeType(bytes);
  if (!mimeType) return { failure: { kind: "failed", reason: "the answer held something that is not a PNG, JPEG, GIF or WebP image" } };
  return { bytes, mimeType };
}

/** A `url` image, fetched without the provider's key (it is often another host, such as a storage bucket). */
async function download(href: string, provider: Provider, deadline: number, signal: AbortSignal): Promise<{ bytes: Buffer } | { failure: ImageFailure }> {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { failure: { kind: "failed", reason: "an image url in the answer is not a valid URL" } };
  }
  const fetched = await guardedGet(url, signal, {
    allowPrivate: isSelfHosted(provider.baseUrl),
    maxBytes: GENERATED_IMAGE_MAX_BYTES + 1,
    userAgent: "openclaw-clone image_generate",
    accept: "image/*",
    // What is left of the attempt's time.
    timeoutMs: Math.max(1, deadline - Date.now()),
    maxRedirects: WEB_FETCH_MAX_REDIRECTS,
  });
  if ("failure" in fetched) {
    const text = fetched.failure.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    const message = (JSON.parse(text) as { message?: string }).message ?? "the download failed";
    return { failure: { kind: "failed", reason: `the image at ${url.host} could not be downloaded: ${message}` } };
  }
  const { response } = fetched;
  if (response.status >= 400) return { failure: { kind: "failed", reason: `the image at ${url.host} answered HTTP ${response.status}` } };
  if (response.cut) return { failure: { kind: "failed", reason: `the image at ${url.host} is over ${formatBytes(GENERATED_IMAGE_MAX_BYTES)}` } };
  return { bytes: response.body };
}

/**
 * A provider's HTTP error as the model reads it: a refused key names where the key is set (the
 * answer's text is left out: OpenAI's echoes part of the key); a content-policy refusal and any
 * other status carry the provider's own message, cut short, with every secret masked.
 */
function httpFailure(provider: Provider, status: number, body: Buffer, secrets: readonly (string | undefined)[]): ImageFailure {
  if (status === 401 || status === 403) {
    const where = `models.providers.${provider.provider}.apiKey or ${apiKeyEnvVar(provider.provider)}`;
    return { kind: "auth", reason: `the provider refused the API key (HTTP ${status}): check ${where}` };
  }
  const error = (parseJson(body)?.error ?? {}) as { code?: unknown; type?: unknown; message?: unknown };
  const message = typeof error.message === "string" ? redactSecrets(error.message, secrets).replace(/\s+/g, " ").trim() : "";
  const shown = message.length > PROVIDER_MESSAGE_MAX_CHARS ? `${message.slice(0, PROVIDER_MESSAGE_MAX_CHARS)}…` : message;
  const said = shown ? `: ${shown}` : "";
  const refused = REFUSAL_CODES.has(String(error.code)) || REFUSAL_CODES.has(String(error.type)) || /safety system|content policy/i.test(message);
  if (status === 400 && refused)
    return { kind: "refused", reason: `the provider's content policy refused the prompt (HTTP 400${error.code ? ` ${String(error.code)}` : ""})${said}` };
  if (status === 429) return { kind: "failed", reason: `rate-limited or out of quota (HTTP 429)${said}` };
  return { kind: "failed", reason: `HTTP ${status}${status >= 500 ? " (the provider's server failed)" : ""}${said}` };
}

/** A JSON answer of `count` images at most: each base64 image is 4/3 its size, plus room for the rest. */
function answerLimit(count: number): number {
  return Math.ceil((count * GENERATED_IMAGE_MAX_BYTES * 4) / 3) + 1024 * 1024;
}

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(body.toString("utf8")) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function failed(reason: string): ImageOutcome {
  return { ok: false, failure: { kind: "failed", reason } };
}
