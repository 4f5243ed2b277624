import { describe, expect, it } from "vitest";
import { withFailureHint } from "../../../src/models/failure-hints.js";

const model = { provider: "ollama", id: "llama3.2" };
const openai = (baseUrl: string) => ({ baseUrl, path: "/chat/completions", baseUrlCarriesVersion: true });

describe("withFailureHint", () => {
  it("a 404 from an OpenAI-style baseUrl without /v1 names the URL called and the baseUrl to use", () => {
    const hinted = withFailureHint({ kind: "config", retryable: false, status: 404, message: "HTTP 404: 404 page not found" }, openai("http://127.0.0.1:11434/"), model);
    expect(hinted.message).toBe(
      'HTTP 404: 404 page not found (called POST http://127.0.0.1:11434/chat/completions; did you mean models.providers.ollama.baseUrl: "http://127.0.0.1:11434/v1"?)',
    );
  });

  it("a 404 when the baseUrl has its version points at the model id", () => {
    const hinted = withFailureHint({ kind: "config", retryable: false, status: 404, message: "HTTP 404: model not found" }, openai("http://127.0.0.1:11434/v1"), model);
    expect(hinted.message).toContain("called POST http://127.0.0.1:11434/v1/chat/completions");
    expect(hinted.message).toContain('check that the server has model "llama3.2"');
    expect(hinted.message).not.toContain("did you mean");
  });

  it("Anthropic's base URL is an origin: no /v1 suggestion", () => {
    const hinted = withFailureHint(
      { kind: "config", retryable: false, status: 404, message: "HTTP 404: not found" },
      { baseUrl: "https://proxy.example", path: "/v1/messages", baseUrlCarriesVersion: false },
      { provider: "anthropic", id: "claude" },
    );
    expect(hinted.message).toContain("called POST https://proxy.example/v1/messages");
    expect(hinted.message).not.toContain("did you mean");
  });

  it("a refused key names where the key comes from; an unreachable server names baseUrl", () => {
    const auth = withFailureHint({ kind: "auth", retryable: false, status: 401, message: "HTTP 401: invalid key" }, openai("https://api.openai.com/v1"), {
      provider: "openai",
      id: "gpt-4o",
    });
    expect(auth.message).toContain("OPENAI_API_KEY, models.providers.openai.apiKey or auth-profiles.json");
    const network = withFailureHint({ kind: "network", retryable: true, message: "connection failed: ECONNREFUSED" }, openai("http://127.0.0.1:1/v1"), model);
    expect(network.message).toContain("is the server running there? Check models.providers.ollama.baseUrl");
  });

  it("other failures (rate limits, server errors) are left as they are", () => {
    const error = { kind: "server" as const, retryable: true, status: 503, message: "HTTP 503: busy" };
    expect(withFailureHint(error, openai("http://x/v1"), model)).toBe(error);
  });
});
