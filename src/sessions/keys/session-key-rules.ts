/**
 * What a session key may look like. Keys arrive from clients (chat.send, the OpenAI `user`
 * field) and channel ids, so they are validated once here and trusted afterwards. The store
 * never uses a key as a path, but the agent id inside it names a directory, and a key shaped
 * like a path is a sign of an attack or a bug — both are refused with a message that says why.
 */

/** The protocol's limit for `chat.send` session keys; applied to every key. */
export const MAX_SESSION_KEY_LENGTH = 512;

/** Agent ids name directories under `<state>/agents/`, so only a plain, short slug is allowed. */
const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

// C0 and C1 controls, DEL, and the Unicode line/paragraph separators (they split JSON lines in
// some tools and hide text in logs).
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export class SessionKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionKeyError";
  }
}

/** Refuses text no key may contain. `what` names the value in the error ("session key", "peer id"). */
export function assertKeyText(value: string, what: string): void {
  if (value.length === 0) throw new SessionKeyError(`${what} is empty`);
  if (value.length > MAX_SESSION_KEY_LENGTH) {
    throw new SessionKeyError(`${what} is ${value.length} characters long; the limit is ${MAX_SESSION_KEY_LENGTH}`);
  }
  if (CONTROL_CHARS.test(value)) throw new SessionKeyError(`${what} contains a control character`);
  if (value.includes("\\")) throw new SessionKeyError(`${what} contains a backslash`);
  // Slashes are legitimate in some channel ids (Google Chat `spaces/…`); a `.` or `..` segment is not.
  if (value.split(/[:/]/).some((seg) => seg === "." || seg === "..")) {
    throw new SessionKeyError(`${what} contains a "." or ".." path segment`);
  }
}

/** Checks a full key: text rules plus no empty `:`-separated part (`a::b`, `a:`, `:a`). */
export function assertSessionKeyShape(key: string): void {
  if (checkedKeys.has(key)) return;
  assertKeyText(key, "session key");
  if (key.split(":").some((part) => part.trim().length === 0)) {
    throw new SessionKeyError(`session key "${key}" has an empty part (check for "::" or a leading/trailing ":")`);
  }
  if (checkedKeys.size >= MAX_CHECKED_KEYS) checkedKeys.clear();
  checkedKeys.add(key);
}

/**
 * Keys that passed the check recently: a turn checks its session key several times on its way
 * through the layers, and a key that passed once passes again (the check reads only the text).
 */
const checkedKeys = new Set<string>();
const MAX_CHECKED_KEYS = 1024;

/** Normalizes (trim, lower-case) and validates an agent id; the result is safe as a directory name. */
export function normalizeSafeAgentId(agentId: string): string {
  const id = agentId.trim().toLowerCase();
  if (!AGENT_ID_PATTERN.test(id)) {
    throw new SessionKeyError(`agent id "${id.slice(0, 80)}" is not valid: use 1-64 characters a-z, 0-9, "_" or "-", starting with a letter or digit`);
  }
  return id;
}
