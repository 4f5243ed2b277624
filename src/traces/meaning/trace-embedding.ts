import type { Logger } from "../../infra/logger.js";
import { BackgroundPass } from "../background-pass.js";
import { traceText } from "../trace-text.js";
import type { TraceVectors } from "./trace-vectors.js";

/**
 * Turns texts into vectors; `key` names the endpoint and model, so vectors of another one are
 * not compared. An error with `kind: "unreachable"` means no answer at all (the provider is down).
 */
export interface TextEmbedder {
  readonly key: string;
  embed(texts: string[], options?: { signal?: AbortSignal; retries?: number }): Promise<Float32Array[]>;
}

/** The most of a trace's text that is embedded: the start of what it says (its input first). */
export const MEANING_TEXT_CHARS = 6_000;
/** Traces embedded per request. */
const BATCH = 16;
/** The vector of a trace whose text the provider refused: stored so it is not tried again. */
const REFUSED = new Float32Array(0);

export interface TraceEmbeddingDeps {
  /** The embedder now; undefined while meaning search is off. */
  embedder(): TextEmbedder | undefined;
  vectors(): Promise<TraceVectors>;
  logger: Logger;
}

/**
 * Embeds traces in the background, newest first, a batch per request, until every trace has a
 * vector from the current embedder. A failed request ends the pass (logged once per reason); the
 * traces still waiting are embedded at the next kick (a trace written, a start).
 */
export class TraceEmbedding {
  private lastError: string | undefined;
  private readonly passes = new BackgroundPass(
    () => this.embedWaiting(),
    (err) => this.failed(err.message),
  );
  private readonly stopping = this.passes.signal;

  constructor(private readonly deps: TraceEmbeddingDeps) {}

  kick(): void {
    if (this.deps.embedder()) this.passes.kick();
  }

  close(): Promise<void> {
    return this.passes.close();
  }

  private async embedWaiting(): Promise<void> {
    const vectors = await this.deps.vectors();
    for (;;) {
      const embedder = this.deps.embedder();
      if (!embedder || this.stopping.aborted) return;
      const waiting = vectors.unembedded(embedder.key, BATCH);
      if (waiting.length === 0) return;
      const texts = waiting.map((trace) => traceText(trace.record).slice(0, MEANING_TEXT_CHARS));
      const embedded = await embedder.embed(texts, { signal: this.stopping, retries: 1 }).catch((err: Error) => this.oneByOne(embedder, texts, err));
      if (this.stopping.aborted) return;
      waiting.forEach((trace, i) => vectors.put(trace.runId, embedder.key, embedded[i] ?? REFUSED));
      this.lastError = undefined;
    }
  }

  /**
   * After a batch was refused, each text alone: one the provider refuses while it embeds others
   * would otherwise hold back every trace after it. Such a text gets an empty vector (never
   * compared, never retried). When none goes through, or the provider did not answer at all, the
   * batch's error stands.
   */
  private async oneByOne(embedder: TextEmbedder, texts: string[], batchError: Error): Promise<(Float32Array | undefined)[]> {
    if (texts.length === 1 || (batchError as { kind?: string }).kind === "unreachable") throw batchError;
    const embedded: (Float32Array | undefined)[] = [];
    for (const text of texts) {
      if (this.stopping.aborted) throw batchError;
      embedded.push(
        await embedder.embed([text], { signal: this.stopping, retries: 0 }).then(
          (one) => one[0],
          () => undefined,
        ),
      );
    }
    if (embedded.every((vector) => vector === undefined)) throw batchError;
    return embedded;
  }

  private failed(reason: string): void {
    if (this.stopping.aborted || reason === this.lastError) return;
    this.lastError = reason;
    this.deps.logger.warn({ err: reason }, "run traces not embedded for meaning search: they are embedded at the next trace written or the next start");
  }
}
