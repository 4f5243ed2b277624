/**
 * A run tried to write to a session another run (or a reset/delete) took over. The superseded
 * run must stop: writing would interleave two conversations in one transcript.
 */
export class StaleWriterError extends Error {
  constructor(
    readonly sessionKey: string,
    readonly runId: string,
    readonly activeWriterRunId: string | undefined,
  ) {
    super(
      activeWriterRunId
        ? `run ${runId} may no longer write to session ${sessionKey}: run ${activeWriterRunId} holds it now`
        : `run ${runId} may no longer write to session ${sessionKey}: it holds no writer claim (released, reset or deleted)`,
    );
    this.name = "StaleWriterError";
  }
}

export class SessionNotFoundError extends Error {
  constructor(readonly sessionKey: string) {
    super(`session ${sessionKey} does not exist`);
    this.name = "SessionNotFoundError";
  }
}
