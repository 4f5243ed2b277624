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

  const watcher = watch([root, memoryDir, ...extras], {
    ignoreInitial: true,
    ignored: (candidate: string) => !isMemoryPath(candidate),
  });
  watcher.on("all", (_event, changed) => onEvent(changed));
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
