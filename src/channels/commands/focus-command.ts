import type { ThreadBindingStore, ThreadRef } from "../thread-bindings.js";

/** A sub-agent named by `/focus`, or why none can be (the sub-agent service answers). */
export type FocusTargetResolver = (ownerSessionKeys: readonly string[], target: string) => { ok: true; sessionKey: string; label: string } | { ok: false; message: string };

export interface ThreadFocusDeps {
  bindings: ThreadBindingStore;
  /** The chat, and the thread in it, the command was typed in. */
  chat: ThreadRef;
  /** The chat's own session and, in a thread, its parent chat's: the sessions whose sub-agents may be focused here. */
  ownerSessionKeys: readonly string[];
  /** Absent when the gateway has no sub-agents. */
  resolveTarget?: FocusTargetResolver;
}

/**
 * `/focus <target>`: every message written in this thread (or this chat, outside any thread)
 * goes to that sub-agent's session until `/unfocus` or the sub-agent's end.
 */
export function runFocusCommand(args: string, deps: ThreadFocusDeps): string {
  const where = placeName(deps.chat);
  const target = args.trim();
  if (!target) {
    const current = deps.bindings.get(deps.chat);
    const state = current ? `Messages in ${where} go to sub-agent "${current.label ?? current.sessionKey}".` : `${capitalize(where)} is not focused on a sub-agent.`;
    return `${state}\nUsage: /focus <#n|label|runId> — send the messages in ${where} to that sub-agent; /unfocus undoes it.`;
  }
  if (!deps.resolveTarget) return "Sub-agents are not available on this gateway.";
  const resolved = deps.resolveTarget(deps.ownerSessionKeys, target);
  if (!resolved.ok) return `⚠️ ${resolved.message}`;
  deps.bindings.bind(deps.chat, resolved.sessionKey, { label: resolved.label });
  return `🎯 Focused: messages in ${where} now go to sub-agent "${resolved.label}". /unfocus to stop.`;
}

/** `/unfocus`: this thread (or chat) talks to its own session again. */
export function runUnfocusCommand(deps: ThreadFocusDeps): string {
  const where = placeName(deps.chat);
  const removed = deps.bindings.unbind(deps.chat);
  if (!removed) return `${capitalize(where)} is not focused on a sub-agent.`;
  return `Unfocused: messages in ${where} no longer go to sub-agent "${removed.label ?? removed.sessionKey}".`;
}

function placeName(chat: ThreadRef): string {
  return chat.threadId ? "this thread" : "this chat";
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
