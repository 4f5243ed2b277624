import http from "node:http";
import { listenOnLoopback } from "./loopback-listener.js";

/** One request the fake xAI Responses API answered (or refused). */
export interface XaiRequestRecord {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** What the fake answers for one server-side tool: the answer text and the sources it cites. */
export interface XaiToolAnswer {
  text: string;
  citations: string[];
}

export type XaiFailure = { status: number; body?: unknown } | "hang";

/**
 * A fake of xAI's Responses API (`POST <base>/responses`). It checks what xAI checks: the bearer
 * key, a model, one user message as `input`, exactly one server-side tool (`web_search`,
 * `x_search` or `code_interpreter`) and `store: false`; a malformed request gets xAI's 400. It
 * answers as xAI does: the tool's call item, then an assistant message whose `output_text`
 * carries `url_citation` annotations, and the response's `citations` list. `failWith` makes every
 * request fail (a status with a body, or `"hang"`: never answered; `close` drops the connection)
 * until cleared. Every request is recorded.
 */
export interface FakeXaiServer {
  /** The base URL to configure (`…/v1`). */
  readonly url: string;
  readonly requests: XaiRequestRecord[];
  key: string;
  answers: Record<"web_search" | "x_search" | "code_interpreter", XaiToolAnswer>;
  failWith?: XaiFailure;
  close(): Promise<void>;
}

const CALL_ITEM: Record<string, string> = { web_search: "web_search_call", x_search: "x_search_call", code_interpreter: "code_interpreter_call" };

export async function startFakeXaiServer(): Promise<FakeXaiServer> {
  const fake: Omit<FakeXaiServer, "url" | "close"> = {
    requests: [],
    key: "xai-test-key",
    answers: {
      web_search: { text: "Grok's web answer.", citations: [] },
      x_search: { text: "Grok's X answer.", citations: [] },
      code_interpreter: { text: "The result is 42.", citations: [] },
    },
  };
  let sequence = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    } catch {
      body = {};
    }
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    fake.requests.push({ path, headers: req.headers, body });
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    };
    const failure = fake.failWith;
    if (failure === "hang") return;
    if (failure) return reply(failure.status, failure.body ?? { code: "upstream", error: "upstream body the model must not see" });
    if (req.method !== "POST" || path !== "/v1/responses") return reply(404, { error: "not found" });
    if (req.headers.authorization !== `Bearer ${fake.key}`) return reply(401, { code: "Client specified an invalid argument", error: "Incorrect API key provided: xa***ey." });
    const problem = requestProblem(body);
    if (problem) return reply(400, { code: "Client specified an invalid argument", error: problem });
    const toolType = ((body.tools as Record<string, unknown>[])[0]!.type as keyof FakeXaiServer["answers"]) ?? "web_search";
    const answer = fake.answers[toolType];
    const id = `resp_${++sequence}`;
    reply(200, {
      id,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      model: body.model,
      status: "completed",
      output: [
        { type: CALL_ITEM[toolType], id: `${id}_call`, status: "completed" },
        {
          type: "message",
          id: `${id}_msg`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: answer.text, logprobs: [], annotations: annotations(answer) }],
        },
      ],
      citations: answer.citations,
      usage: { input_tokens: 12, output_tokens: 34, total_tokens: 46, num_sources_used: answer.citations.length },
    });
  });
  return Object.assign(fake, await listenOnLoopback(server).then((l) => ({ ...l, url: `${l.url}/v1` })));
}

/** What xAI would refuse in a tool request: why, or undefined. */
function requestProblem(body: Record<string, unknown>): string | undefined {
  if (typeof body.model !== "string" || !body.model) return "model is required";
  const input = body.input as { role?: unknown; content?: unknown }[] | undefined;
  if (!Array.isArray(input) || input.length !== 1 || input[0]?.role !== "user" || typeof input[0].content !== "string" || !input[0].content) {
    return "input must be one user message";
  }
  const tools = body.tools as Record<string, unknown>[] | undefined;
  if (!Array.isArray(tools) || tools.length !== 1 || !(String(tools[0]?.type) in CALL_ITEM)) return "tools must hold one server-side tool";
  if (body.store !== false) return "store must be false for these calls";
  if (body.max_turns !== undefined && !(Number.isInteger(body.max_turns) && (body.max_turns as number) > 0)) return "max_turns must be a positive integer";
  return undefined;
}

/** One `[[n]](url)` style annotation per cited URL, each at the answer's end (where xAI appends them). */
function annotations(answer: XaiToolAnswer): Record<string, unknown>[] {
  return answer.citations.map((url, index) => ({ type: "url_citation", url, title: String(index + 1), start_index: 0, end_index: answer.text.length }));
}
