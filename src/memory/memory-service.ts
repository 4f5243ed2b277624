import path from "node:path";
import type { OpenClawConfig } from "../config/index.js";
import type { Logger } from "../infra/logger.js";
import { sessionsDir } from "../sessions/store/session-paths.js";
import type { Embedder } from "./embeddings.js";
import type { EmbeddingReadiness } from "./embedding-readiness.js";
import type { SyncProgress, SyncReport } from "./indexer.js";
import type { MemoryIndex } from "./memory-index.js";
import type { MemoryWatcherHandle } from "./memory-watcher.js";
import { readMemoryFile, type MemoryGetOutcome } from "./read-memory-file.js";
import { resolveMemorySettings, type MemorySettings } from "./settings.js";
import type { MemorySearchOptions, MemorySearchResponse, MemoryStatus } from "./types.js";

export interface MemoryServiceOptions {
  stateDir: string;
  config: () => OpenClawConfig;
  env?: NodeJS.ProcessEnv;
  logger: Pick<Logger, "warn" | "info" | "debug">;
  /** Where an agent's workspace is (the agents layer knows; memory does not). */
  workspaceDirOf: (agentId: string) => string;
  /** Watch memory files for changes (a gateway does; a one-off CLI command does not). */
  watch?: boolean;
  /** Replaces the embedder the config describes (benchmarks, an in-process model). */
  embedder?: Embedder | null;
  /** The clock recency decay is measured against. */
  now?: () => Date;
}

interface OpenIndex {
  index: MemoryIndex;
  fingerprint: string;
  watcher?: MemoryWatcherHandle;
}

/**
 * Every agent's memory: indexes are opened on first use (the SQLite module with them), synced
 * at session start and before a search that finds them dirty, and kept current by a watcher.
 * A change of `memory.search` reopens the agent's index with the new settings.
 */
export class MemoryService {
  private readonly open = new Map<string, Promise<OpenIndex>>();
  private closed = false;

  constructor(private readonly options: MemoryServiceOptions) {}

  /** The settings of the current config, resolved once per config object (a reload makes a new one). */
  settingsFor(): MemorySettings {
    const config = this.options.config();
    if (this.resolved?.config !== config) this.resolved = { config, settings: resolveMemorySettings(config, this.options.env ?? process.env) };
    return this.resolved.settings;
  }

  private resolved: { config: object; settings: MemorySettings } | undefined;

  enabled(): boolean {
    return this.settingsFor().enabled;
  }

  dbPathOf(agentId: string): string {
    return path.join(this.options.stateDir, "memory", `${agentId}.sqlite`);
  }

  /** Session start: open the index and, when files changed, sync it in the background. Never waits or throws. */
  prepare(agentId: string): void {
    if (!this.enabled() || this.closed) return;
    void this.indexFor(agentId)
      .then((open) => open.index.syncIfDirty())
      .catch((err) => this.options.logger.warn({ agentId, err: (err as Error).message }, "memory sync at session start failed"));
  }

  async search(agentId: string, query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResponse> {
    const { index } = await this.indexFor(agentId);
    return index.search(query, options);
  }

  async get(agentId: string, relPath: string, from?: number, lines?: number, maxChars?: number): Promise<MemoryGetOutcome> {
    return readMemoryFile(this.options.workspaceDirOf(agentId), this.settingsFor().extraPaths, relPath, from, lines, maxChars);
  }

  async status(agentId: string): Promise<MemoryStatus> {
    const { index } = await this.indexFor(agentId);
    return index.status();
  }

  /** Whether the agent's embedding provider answers: what is known, or (`probe`) asked now. */
  async embeddingReadiness(agentId: string, probe: boolean): Promise<EmbeddingReadiness> {
    const { index } = await this.indexFor(agentId);
    return probe ? index.probeEmbeddings() : index.embeddingReadiness();
  }

  /** `openclaw memory index`: every change is indexed now, transcripts below their threshold too. */
  async sync(agentId: string, options: { force?: boolean; onProgress?: (progress: SyncProgress) => void } = {}): Promise<SyncReport> {
    const { index } = await this.indexFor(agentId);
    return index.sync({ ...options, allSessionChanges: true });
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(
      all.map(async (pending) => {
        const open = await pending.catch(() => undefined);
        await open?.watcher?.close();
        await open?.index.close();
      }),
    );
  }

  private async indexFor(agentId: string): Promise<OpenIndex> {
    if (this.closed) throw new Error("memory service is closed");
    const settings = this.settingsFor();
    const workspaceDir = this.options.workspaceDirOf(agentId);
    const fingerprint = this.fingerprintOf(settings, workspaceDir);
    const pending = this.open.get(agentId);
    if (pending) {
      const current = await pending.catch(() => undefined);
      if (current && current.fingerprint === fingerprint) return current;
      if (this.open.get(agentId) === pending) {
        this.open.delete(agentId);
        await current?.watcher?.close();
        await current?.index.close();
      }
      return this.indexFor(agentId);
    }
    const opening = this.openIndex(agentId, workspaceDir, settings, fingerprint);
    this.open.set(agentId, opening);
    opening.catch(() => {
      if (this.open.get(agentId) === opening) this.open.delete(agentId);
    });
    return opening;
  }

  /** What decides whether an open index still fits: its settings and workspace (the last one is kept, as turns repeat it). */
  private fingerprintOf(settings: MemorySettings, workspaceDir: string): string {
    if (this.lastFingerprint?.settings !== settings || this.lastFingerprint.workspaceDir !== workspaceDir)
      this.lastFingerprint = { settings, workspaceDir, fingerprint: JSON.stringify({ settings, workspaceDir }) };
    return this.lastFingerprint.fingerprint;
  }

  private lastFingerprint: { settings: MemorySettings; workspaceDir: string; fingerprint: string } | undefined;

  private async openIndex(agentId: string, workspaceDir: string, settings: MemorySettings, fingerprint: string): Promise<OpenIndex> {
    const { MemoryIndex } = await import("./memory-index.js");
    const env = this.options.env ?? process.env;
    const index = await MemoryIndex.open({
      agentId,
      workspaceDir,
      sessionsDir: sessionsDir(this.options.stateDir, agentId),
      dbPath: this.dbPathOf(agentId),
      settings,
      logger: this.options.logger,
      ...(this.options.embedder !== undefined ? { embedder: this.options.embedder } : {}),
      ...(this.options.now ? { now: this.options.now } : {}),
      ...(env.OPENCLAW_SQLITE_VEC_PATH ? { vecExtensionPath: env.OPENCLAW_SQLITE_VEC_PATH } : {}),
    });
    if (!(this.options.watch ?? true) || !settings.watch) return { index, fingerprint };
    const { watchMemoryPaths } = await import("./memory-watcher.js");
    let watcherFailed = false;
    const watcher = await watchMemoryPaths({
      workspaceDir,
      extraPaths: settings.extraPaths,
      debounceMs: settings.watchDebounceMs,
      onDirty: () => index.markDirty(),
      onSettled: () => void index.sync().catch((err) => this.options.logger.warn({ agentId, err: (err as Error).message }, "memory sync after a file change failed")),
      onError: (err) => {
        index.setWatched(false);
        if (watcherFailed) return;
        watcherFailed = true;
        this.options.logger.warn(
          { agentId, err: err.message },
          "memory watcher failed: changes are now found by comparing the files at session start and before each search (raise fs.inotify.max_user_watches if it says ENOSPC)",
        );
      },
    });
    index.setWatched(true);
    return { index, fingerprint, watcher };
  }
}
