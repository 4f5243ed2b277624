import path from "node:path";
import { KeyedJsonLinesLog } from "../../../infra/keyed-json-lines-log.js";
import { ensurePrivateDir } from "../../../infra/paths.js";

interface ResponseSession {
  sessionKey: string;
  agentId: string;
}
/** On disk: one `{id, sessionKey, agentId}` line per response. */
type ResponseLine = { id: string } & ResponseSession;

/** How many response ids are remembered; the oldest are forgotten first. */
export const REMEMBERED_RESPONSES = 10_000;

/**
 * Which session each response id continued, so `previous_response_id` continues it again, also
 * after a restart: kept in `<state>/http/response-sessions.jsonl` for the latest 10,000
 * responses. An id it does not know is refused with a clear error rather than silently
 * starting over. The line is on disk before the response naming its id is sent.
 */
export class ResponseSessions {
  private readonly log: KeyedJsonLinesLog<ResponseSession, ResponseLine>;

  constructor(
    file: string,
    private readonly max = REMEMBERED_RESPONSES,
  ) {
    ensurePrivateDir(path.dirname(file));
    this.log = new KeyedJsonLinesLog<ResponseSession, ResponseLine>(
      file,
      {
        replay: (entries, line) => {
          const l = line as Partial<ResponseLine>;
          if (typeof l?.id !== "string" || typeof l.sessionKey !== "string" || typeof l.agentId !== "string") return;
          entries.delete(l.id);
          entries.set(l.id, { sessionKey: l.sessionKey, agentId: l.agentId });
        },
        prune: (entries) => this.dropOldest(entries),
        snapshot: (value, id) => ({ id, ...value }),
      },
      { factor: 2, minLines: 1_000 },
    );
  }

  /** Records the id; resolves once the record is durable. */
  remember(responseId: string, sessionKey: string, agentId: string): Promise<void> {
    this.log.append({ id: responseId, sessionKey, agentId });
    this.log.entries.set(responseId, { sessionKey, agentId });
    this.dropOldest(this.log.entries);
    this.log.compactIfDue();
    return this.log.whenDurable();
  }

  lookup(responseId: string): ResponseSession | undefined {
    return this.log.entries.get(responseId);
  }

  close(): void {
    this.log.close();
  }

  private dropOldest(entries: Map<string, ResponseSession>): void {
    for (const id of entries.keys()) {
      if (entries.size <= this.max) return;
      entries.delete(id);
    }
  }
}
