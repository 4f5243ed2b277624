import { isSelfHosted } from "./local-base-url.js";

/** What Ollama's docs write as the key of a local server: a placeholder, never sent. */
export const OLLAMA_LOCAL_MARKER = "ollama-local";

/** The key to send as `Authorization: Bearer`, if any: none for the local placeholder. */
export function ollamaBearerKey(apiKey: string | undefined): string | undefined {
  return apiKey && apiKey !== OLLAMA_LOCAL_MARKER ? apiKey : undefined;
}

/** An Ollama server on this machine or the LAN takes requests without a key; a public host (ollama.com) needs one. */
export function ollamaKeyOptional(baseUrl: string): boolean {
  return isSelfHosted(baseUrl);
}
