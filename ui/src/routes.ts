export const VIEWS = [
  { id: "chat", label: "Chat" },
  { id: "sessions", label: "Sessions" },
  { id: "approvals", label: "Approvals" },
  { id: "channels", label: "Channels" },
  { id: "agents", label: "Agents & tools" },
  { id: "logs", label: "Logs" },
  { id: "traces", label: "Traces" },
  { id: "review", label: "Review" },
  { id: "usage", label: "Usage" },
  { id: "config", label: "Config" },
  { id: "cron", label: "Cron" },
  { id: "tasks", label: "Tasks" },
  { id: "memory", label: "Memory" },
] as const;

export type ViewId = (typeof VIEWS)[number]["id"];

/** `#/sessions` → "sessions"; anything unknown opens the chat. */
export function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, "").split(/[/?]/)[0];
  return (VIEWS.find((v) => v.id === id)?.id ?? "chat") as ViewId;
}

/** What follows the view in the hash, decoded: `#/traces/run-1` → "run-1"; undefined when nothing does (or it is not valid percent-encoding). */
export function itemFromHash(hash: string): string | undefined {
  const item = /^[^/?]*\/([^?]+)/.exec(hash.replace(/^#\/?/, ""))?.[1];
  if (item === undefined) return undefined;
  try {
    return decodeURIComponent(item);
  } catch {
    return undefined;
  }
}

/** The address of one item of a view, e.g. a run in Traces. */
export function itemHash(view: ViewId, item: string): string {
  return `#/${view}/${encodeURIComponent(item)}`;
}
