/**
 * Whether a provider's error text says the request did not fit the model's context window. Each
 * family words it its own way; one of these must match for the runtime to compact and retry
 * instead of failing the turn (docs/sessions.md, "Compaction").
 */
const OVERFLOW_WORDINGS: readonly RegExp[] = [
  /request_too_large/i, // Anthropic 413
  /prompt is too long/i, // Anthropic 400
  /context[_ ]length[_ ]exceeded/i, // OpenAI error code, Ollama ("ollama error: context length exceeded")
  /maximum context length/i, // OpenAI, vLLM, Mistral ("… too large for model with 32768 maximum context length")
  /input exceeds the maximum number of tokens/i,
  /input token count.{0,40}exceeds the maximum number of (input )?tokens/i, // Google Gemini / Vertex
  /input is too long for (the |requested )?model/i, // AWS Bedrock
  /exceeds? (the )?(model'?s? )?context (window|length|limit)/i,
  /too many (input )?tokens/i,
  /context window (is )?(full|exceeded)/i,
];

export function isContextOverflowText(text: string): boolean {
  for (const wording of OVERFLOW_WORDINGS) if (wording.test(text)) return true;
  return false;
}
