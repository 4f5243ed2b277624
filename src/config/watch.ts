import fs from "node:fs";
import path from "node:path";
import { diffConfigPaths, restartRequiredPaths } from "./diff.js";
import { ConfigError } from "./errors.js";
import { hashConfigBytes, loadConfigFromBytes, type LoadedConfig } from "./load.js";

export interface ConfigChange {
  loaded: LoadedConfig;
  /** Leaf key paths that differ from the current config, sorted. */
  changedPaths: string[];
  /** The subset of changedPaths that needs a gateway restart to take effect. */
  restartRequiredPaths: string[];
}

export interface ConfigWatchOptions {
  /** The config file. It may not exist yet (its directory must): creating it counts as an edit. */
  path: string;
  /** The state dir the file belongs to; accepted for symmetry with loadConfig, unused today. */
  stateDir: string;
  env?: NodeJS.ProcessEnv;
  /** The config the gateway is running with now; changes are computed against it. */
  current: () => LoadedConfig;
  /** A valid edit that changes at least one key. Must not throw. */
  onChange: (change: ConfigChange) => void;
  /** An edit that does not parse or validate; the running config stays as it is. Must not throw. */
  onInvalid: (err: ConfigError) => void;
  /** Quiet period after the last file event before the file is read (default 300 ms). */
  debounceMs?: number;
}

export interface ConfigWatchHandle {
  close(): Promise<void>;
}

/**
 * Watches the config file for external edits. Resolves once the watcher is ready, so a
 * write made after `await` is seen. chokidar is imported here, not at module top level,
 * because only a running gateway needs it and start-up time matters.
 *
 * The directory is watched rather than the file: editors that save by writing a temp file
 * and renaming it, and users who delete and recreate the file, would otherwise leave a
 * watcher attached to an inode that no longer exists. A deleted file keeps the current
 * config (nothing to apply); its re-creation is handled like any edit.
 */
export async function watchConfig(opts: ConfigWatchOptions): Promise<ConfigWatchHandle> {
  const { watch } = await import("chokidar");
  const filePath = path.resolve(opts.path);
  const dir = path.dirname(filePath);
  const env = opts.env ?? process.env;
  const debounceMs = opts.debounceMs ?? 300;
  let lastSeenHash = opts.current().hash;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const readAndApply = (): void => {
    timer = undefined;
    if (closed) return;
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(filePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return; // deleted: wait for it to come back
      opts.onInvalid(new ConfigError(`cannot read config file ${filePath}: ${(err as Error).message}`, { filePath }));
      return;
    }
    const hash = hashConfigBytes(bytes);
    // Editors often write the same bytes several times (or touch the file): nothing to do.
    if (hash === lastSeenHash || hash === opts.current().hash) return;
    lastSeenHash = hash;

    let loaded: LoadedConfig;
    try {
      loaded = loadConfigFromBytes(bytes, filePath, env);
    } catch (err) {
      opts.onInvalid(err instanceof ConfigError ? err : new ConfigError(String(err), { filePath }));
      return;
    }
    const changedPaths = diffConfigPaths(opts.current().config, loaded.config);
    if (changedPaths.length === 0) return; // e.g. only comments or formatting changed
    opts.onChange({ loaded, changedPaths, restartRequiredPaths: restartRequiredPaths(changedPaths) });
  };

  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(readAndApply, debounceMs);
  };

  const watcher = watch(dir, {
    ignoreInitial: true,
    depth: 0,
    // Only the config file itself (and its directory, which must be watched to see it).
    ignored: (candidate: string) => {
      const absolute = path.resolve(candidate);
      return absolute !== dir && absolute !== filePath;
    },
  });
  watcher.on("all", (_event, changed) => {
    if (path.resolve(changed) === filePath) schedule();
  });
  // chokidar drops a "change" whose stat looks unchanged (same size within the same mtime
  // tick) and briefly holds events around renames; fast successive saves would be lost.
  // Raw fs events are never filtered, and extra wake-ups are cheap: the hash check absorbs them.
  const baseName = path.basename(filePath);
  watcher.on("raw", (_event, rawPath, details) => {
    const watchedPath = (details as { watchedPath?: string } | undefined)?.watchedPath;
    if (watchedPath === filePath || (typeof rawPath === "string" && path.basename(rawPath) === baseName)) schedule();
  });
  // Watch errors (e.g. the directory vanished) must not crash the gateway; the current
  // config simply stays in effect.
  watcher.on("error", () => {});
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
