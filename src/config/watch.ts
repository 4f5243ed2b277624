import fs from "node:fs";
import path from "node:path";
import { diffConfigPaths, restartRequiredPaths } from "./diff.js";
import { ConfigError } from "./errors.js";
import { configSignature, hashConfigBytes, loadConfigFromBytes, prefetchConfigSecrets, type LoadedConfig } from "./load.js";
import type { RuntimeOverrides } from "./runtime-overrides.js";

/** sha256 of a file's bytes now, or "missing". */
function hashOfFile(file: string): string {
  try {
    return hashConfigBytes(fs.readFileSync(file));
  } catch {
    return "missing";
  }
}

function sameBytes(file: string, bytes: Buffer): boolean {
  try {
    return fs.readFileSync(file).equals(bytes);
  } catch {
    return false;
  }
}

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
  /** The runtime overrides (`/debug`) laid over each read of the file. */
  overrides?: () => RuntimeOverrides;
}

export interface ConfigWatchHandle {
  close(): Promise<void>;
}

/**
 * Watches the config file for external edits. Resolves once the watcher is ready, so a
 * write made after `await` is seen. chokidar is imported here, not at module top level,
 * because only a running gateway needs it and start-up time matters.
 *
 * The files the config's `$include`s read are watched too (each by its own path, as the last load
 * found them), so an edit to one reloads the config as an edit to the file does.
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
  // What was last read: the file's hash and those of the files its `$include`s read.
  const currentSignature = (): string => configSignature(opts.current());
  const signatureNow = (hash: string): string =>
    configSignature({ hash, includedFiles: (opts.current().includedFiles ?? []).map((file) => ({ path: file.path, hash: hashOfFile(file.path) })) });
  let lastSeenSignature = currentSignature();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const watchedIncludes = new Set<string>();

  const readAndApply = async (): Promise<void> => {
    if (closed) return;
    watchIncludes();
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(filePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return; // deleted: wait for it to come back
      opts.onInvalid(new ConfigError(`cannot read config file ${filePath}: ${(err as Error).message}`, { filePath }));
      return;
    }
    const signature = signatureNow(hashConfigBytes(bytes));
    // Editors often write the same bytes several times (or touch the file): nothing to do.
    if (signature === lastSeenSignature || signature === currentSignature()) return;
    lastSeenSignature = signature;

    let loaded: LoadedConfig;
    try {
      // Exec SecretRef resolvers run while the gateway goes on serving; the load then reads their answers.
      const execReads = await prefetchConfigSecrets(bytes, filePath, env);
      // Changed meanwhile (a config.* write applied it): that change's own event reads it next.
      if (closed || !sameBytes(filePath, bytes)) return;
      loaded = loadConfigFromBytes(bytes, filePath, env, execReads, opts.overrides?.());
    } catch (err) {
      opts.onInvalid(err instanceof ConfigError ? err : new ConfigError(String(err), { filePath }));
      return;
    }
    const changedPaths = diffConfigPaths(opts.current().config, loaded.config);
    if (changedPaths.length === 0) return; // e.g. only comments or formatting changed
    opts.onChange({ loaded, changedPaths, restartRequiredPaths: restartRequiredPaths(changedPaths) });
  };

  // One read at a time: a change seen while one awaits its resolvers is read after it.
  let reading: Promise<void> = Promise.resolve();
  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      reading = reading.then(readAndApply).catch((err: unknown) => opts.onInvalid(new ConfigError(`config reload failed: ${(err as Error).message}`, { filePath })));
    }, debounceMs);
  };

  const watcher = watch(dir, {
    ignoreInitial: true,
    depth: 0,
    // Only the config file itself (and its directory, which must be watched to see it), and the files its `$include`s read.
    ignored: (candidate: string) => {
      const absolute = path.resolve(candidate);
      return absolute !== dir && absolute !== filePath && !watchedIncludes.has(absolute);
    },
  });
  const watchIncludes = (): void => {
    for (const { path: included } of opts.current().includedFiles ?? []) {
      if (watchedIncludes.has(included)) continue;
      watchedIncludes.add(included);
      watcher.add(included);
    }
  };
  watchIncludes();
  watcher.on("all", (_event, changed) => {
    const absolute = path.resolve(changed);
    if (absolute === filePath || watchedIncludes.has(absolute)) schedule();
  });
  // chokidar drops a "change" whose stat looks unchanged (same size within the same mtime
  // tick) and briefly holds events around renames; fast successive saves would be lost.
  // Raw fs events are never filtered, and extra wake-ups are cheap: the hash check absorbs them.
  const baseName = path.basename(filePath);
  watcher.on("raw", (_event, rawPath, details) => {
    const watchedPath = (details as { watchedPath?: string } | undefined)?.watchedPath;
    if (watchedPath === filePath || (watchedPath !== undefined && watchedIncludes.has(watchedPath)) || (typeof rawPath === "string" && path.basename(rawPath) === baseName))
      schedule();
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
      await reading;
    },
  };
}
