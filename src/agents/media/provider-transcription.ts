import fs from "node:fs/promises";
import path from "node:path";
import type { MediaFile } from "./media-file.js";

/**
 * OpenAI's `POST <baseUrl>/audio/transcriptions` (OpenAI, Groq and the local servers that copy
 * it): the file, the model, and the language and prompt when set; the answer's `text`. Rejects
 * naming the provider and the HTTP status, never the key or the provider's body.
 */
export async function transcribeWithProvider(
  file: MediaFile,
  attempt: { provider: string; model: string; baseUrl: string; apiKey?: string; language?: string; prompt?: string },
  signal: AbortSignal,
): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([await fs.readFile(file.path)], { type: file.mimeType ?? "application/octet-stream" }), path.basename(file.path));
  form.append("model", attempt.model);
  form.append("response_format", "json");
  if (attempt.language) form.append("language", attempt.language);
  if (attempt.prompt) form.append("prompt", attempt.prompt);
  const url = `${attempt.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      body: form,
      signal,
      ...(attempt.apiKey ? { headers: { authorization: `Bearer ${attempt.apiKey}` } } : {}),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    const why = cause?.code ?? cause?.message;
    throw new Error(`${new URL(url).host} could not be reached${why ? ` (${why})` : ""}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}${response.status === 401 || response.status === 403 ? ": check the provider's API key" : ""}`);
  }
  const body = (await response.json().catch(() => undefined)) as { text?: unknown } | undefined;
  if (typeof body?.text !== "string") throw new Error("the answer had no text");
  return body.text;
}
