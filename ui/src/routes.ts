export const VIEWS = [
  { id: "chat", label: "Chat" },
  { id: "sessions", label: "Sessions" },
  { id: "approvals", label: "Approvals" },
  { id: "channels", label: "Channels" },
  { id: "agents", label: "Agents & tools" },
  { id: "logs", label: "Logs" },
  { id: "usage", label: "Usage" },
  { id: "config", label: "Config" },
  { id: "cron", label: "Cron" },
  { id: "memory", label: "Memory" },
] as const;

export type ViewId = (typeof VIEWS)[number]["id"];

/** `#/sessions` → "sessions"; anything unknown opens the chat. */
export function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, "").split(/[/?]/)[0];
  return (VIEWS.find((v) => v.id === id)?.id ?? "chat") as ViewId;
}
