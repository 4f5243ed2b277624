import path from "node:path";

export interface MemoryWatcherHandle {
  close(): Promise<void>;
}

/**
 * Watches an agent's memory paths (MEMORY.md, USER.md, `memory/`, extra paths) and calls
 * `onDirty` at once on any change, then `onSettled` once the files have been quiet for
 * `debounceMs`. The workspace root is watched one level deep only: a workspace may hold large
 * trees (repositories, node_modules) that are not memory.
 */
export async function watchMemoryPaths(options: {
  workspaceDir: string;
  extraPaths: readonly string[];
  debounceMs: number;
  onDirty: () => void;
  onSettled: () => void;
  /** The file system stopped reporting (no inotify watches left, a folder gone unreadable). */
  onError: (err: Error) => void;
}): Promise<MemoryWatcherHandle> {
  const { watch } = await import("chokidar");
  const root = path.resolve(options.workspaceDir);
  const memoryDir = path.join(root, "memory");
  const extras = options.extraPaths.map((p) => path.resolve(root, p));
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const isMemoryPath = (candidate: string): boolean => {
    const abs = path.resolve(candidate);
    if (abs === root || abs === memoryDir || abs.startsWith(memoryDir + path.sep)) return true;
    if (path.dirname(abs) === root) return ["MEMORY.md", "memory.md", "USER.md"].includes(path.basename(abs));
    return extras.some((extra) => abs === extra || abs.startsWith(extra + path.sep));
  };
  const onEvent = (changed: string): void => {
    if (closed || !isMemoryPath(changed) || path.resolve(changed) === root) return;
    options.onDirty();
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) options.onSettled();
    }, options.debounceMs);
  };

  // Directories are tracked by chokidar (new folders are picked up); the files inside them are
  // not, so a memory folder of thousands of notes costs one watch, not thousands of stat entries.
  // Their changes arrive as the directory's raw events.
  const watcher = watch([root, memoryDir, ...extras], {
    ignoreInitial: true,
    // Decided by name, without a stat: a `.md` under a memory folder is a note, not a folder.
    ignored: (candidate: string) => {
      const abs = path.resolve(candidate);
      if (!isMemoryPath(abs)) return true;
      return abs.toLowerCase().endsWith(".md") && path.dirname(abs) !== root && !extras.includes(abs);
    },
  });
  watcher.on("all", (_event, changed) => onEvent(changed));
  watcher.on("raw", (_event, rawPath, details) => {
    const dir = (details as { watchedPath?: string } | undefined)?.watchedPath;
    if (typeof rawPath !== "string" || !dir || !rawPath.toLowerCase().endsWith(".md")) return;
    onEvent(path.isAbsolute(rawPath) ? rawPath : path.join(dir, rawPath));
  });
  watcher.on("error", (err) => {
    if (!closed) options.onError(err as Error);
  });
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
