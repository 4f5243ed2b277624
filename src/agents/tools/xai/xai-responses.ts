import dns from "node:dns/promises";
import net from "node:net";
import { formatTimeout, postToProvider, readCapped } from "../../media/provider-post.js";
import { isBlockedAddress } from "../network-guard.js";
import { endpointUrl } from "../web-search/search-types.js";
import { parseXaiAnswer, XaiAnswerError, type XaiAnswer } from "./xai-answer.js";

/** A Responses API answer is text and a few citations: anything longer is refused. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** One request to xAI's Responses API with a single server-side tool. */
export interface XaiRequest {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The user message xAI's model works on (a search query, an analysis task). */
  input: string;
  /** The server-side tool xAI runs: `{ type: "web_search" }`, `{ type: "x_search", ... }`, `{ type: "code_interpreter" }`. */
  tool: Record<string, unknown>;
  /** The most internal tool turns xAI may take; xAI's own limit when unset. */
  maxTurns?: number;
  timeoutMs: number;
}

/**
 * Why a request gave no answer: `http` (xAI answered with `status`), `timeout`, `unreachable`
 * or `answer` (a 2xx body that was not a usable answer). The message never holds the key, the
 * request or xAI's response body.
 */
export class XaiRequestError extends Error {
  constructor(
    readonly kind: "http" | "timeout" | "unreachable" | "answer",
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * POSTs `<baseUrl>/responses` (stateless: `store: false`) within the request's timeout, which
 * also bounds reading the answer, and reads the answer text and citations. Rejects with
 * XaiRequestError; the run's own signal ending the call rejects with its abort instead.
 */
export async function askXai(request: XaiRequest, signal: AbortSignal): Promise<XaiAnswer> {
  const endpoint = endpointUrl(request.baseUrl, "/responses");
  await refuseClearTextToPublicHost(endpoint);
  const url = endpoint.href;
  const body = {
    model: request.model,
    input: [{ role: "user", content: request.input }],
    tools: [request.tool],
    store: false,
    ...(request.maxTurns ? { max_turns: request.maxTurns } : {}),
  };
  const post = await postToProvider(
    url,
    { body: JSON.stringify(body), headers: { authorization: `Bearer ${request.apiKey}`, "content-type": "application/json", accept: "application/json" } },
    { signal, timeoutMs: request.timeoutMs, secrets: [request.apiKey] },
  );
  const late = () => new XaiRequestError("timeout", `xAI did not answer within ${formatTimeout(request.timeoutMs)}`);
  if (!post.ok) throw post.kind === "timeout" ? late() : new XaiRequestError("unreachable", post.reason);
  const { response } = post;
  if (!response.ok) {
    // xAI's error body may echo the request; it is never read, only the status is reported.
    await response.body?.cancel().catch(() => undefined);
    throw new XaiRequestError("http", `xAI answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`, response.status);
  }
  let text: string;
  try {
    text = (await readCapped(response, MAX_ANSWER_BYTES)).toString("utf8");
  } catch (error) {
    if (signal.aborted) throw error;
    if (post.timedOut()) throw late();
    throw new XaiRequestError("answer", `reading xAI's answer failed: ${(error as Error).message}`);
  }
  try {
    return parseXaiAnswer(JSON.parse(text));
  } catch (error) {
    throw new XaiRequestError("answer", error instanceof XaiAnswerError ? `xAI's answer held no text; try a simpler request` : "xAI's answer was not JSON");
  }
}

/**
 * The key travels in clear text over `http://`: allowed only to a loopback or private address (a
 * local proxy), every address the name resolves to checked; `https://` may go anywhere.
 */
async function refuseClearTextToPublicHost(url: URL): Promise<void> {
  if (url.protocol !== "http:") return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    throw new XaiRequestError("unreachable", `the host ${url.hostname} could not be found`);
  }
  if (addresses.length === 0 || addresses.some((address) => !isBlockedAddress(address))) {
    throw new XaiRequestError("unreachable", `${url.host} is a public host: http:// is only allowed to a loopback or private address; use https://`);
  }
}
