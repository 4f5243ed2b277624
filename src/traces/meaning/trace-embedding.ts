import type { Logger } from "../../infra/logger.js";
import { BackgroundPass } from "../background-pass.js";
import { traceText } from "../trace-text.js";
import type { TraceVectors } from "./trace-vectors.js";

/** Turns texts into vectors; `key` names the endpoint and model, so vectors of another one are not compared. */
export interface TextEmbedder {
  readonly key: string;
  embed(texts: string[], options?: { signal?: AbortSignal; retries?: number }): Promise<Float32Array[]>;
}

/** The most of a trace's text that is embedded: the start of what it says (its input first). */
export const MEANING_TEXT_CHARS = 6_000;
/** Traces embedded per request. */
const BATCH = 16;

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
      const embedded = await embedder.embed(
        waiting.map((trace) => traceText(trace.record).slice(0, MEANING_TEXT_CHARS)),
        { signal: this.stopping, retries: 1 },
      );
      if (this.stopping.aborted) return;
      waiting.forEach((trace, i) => vectors.put(trace.runId, embedder.key, embedded[i]!));
      this.lastError = undefined;
    }
  }

  private failed(reason: string): void {
    if (this.stopping.aborted || reason === this.lastError) return;
    this.lastError = reason;
    this.deps.logger.warn({ err: reason }, "run traces not embedded for meaning search: they are embedded at the next trace written or the next start");
  }
}
