import { createHash, randomUUID } from "node:crypto";
import { buildHttpStatelessSessionKey, buildOpenAiUserSessionKey, buildOpenResponsesUserSessionKey, type HttpApi } from "../../../sessions/keys/index.js";
import { OpenAiRequestError } from "./openai-errors.js";

const SESSION_KEY_CHARS = /^[A-Za-z0-9_:.\-/]+$/;
const MAX_SESSION_KEY = 512;
/** Sessions the gateway itself owns; an HTTP caller must not write into them (see docs/http-api.md, "Sessions"). */
const RESERVED_PREFIXES = ["subagent:", "cron:", "acp:"];
const PLAIN_USER = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The session a chat-completions request talks to: an explicit, valid `x-openclaw-session-key`;
 * else one stable session per OpenAI `user`; else a fresh one, so plain OpenAI clients are
 * stateless by default. `stateless` tells the caller to replay the request's own history.
 */
export function deriveSessionKey(
  headerKey: string | undefined,
  user: string | undefined,
  agentId: string,
  /** `openai` for chat completions, `openresponses` for the Responses API. */
  prefix: HttpApi = "openai",
): { sessionKey: string; stateless: boolean } {
  if (headerKey !== undefined && headerKey !== "") return { sessionKey: validSessionKey(headerKey), stateless: false };
  if (user)
    return {
      sessionKey: prefix === "openai" ? buildOpenAiUserSessionKey(agentId, userKeyPart(user)) : buildOpenResponsesUserSessionKey(agentId, userKeyPart(user)),
      stateless: false,
    };
  return { sessionKey: buildHttpStatelessSessionKey(agentId, prefix, randomUUID()), stateless: true };
}

function validSessionKey(key: string): string {
  const invalid = (why: string) => new OpenAiRequestError(`Invalid x-openclaw-session-key: ${why}.`, "x-openclaw-session-key");
  if (key.length > MAX_SESSION_KEY) throw invalid(`longer than ${MAX_SESSION_KEY} characters`);
  if (!SESSION_KEY_CHARS.test(key)) throw invalid("only letters, digits and _ : . - / are allowed");
  if (key.includes("..")) throw invalid("'..' is not allowed");
  // Reserved kinds are refused both bare and inside an agent-scoped key (`agent:<id>:cron:…`).
  const rest = /^agent:[^:]+:(.*)$/i.exec(key)?.[1] ?? key;
  for (const prefix of RESERVED_PREFIXES) {
    if (key.toLowerCase().startsWith(prefix) || rest.toLowerCase().startsWith(prefix)) throw invalid(`'${prefix}' sessions are reserved`);
  }
  return key;
}

/**
 * `user` is free text from the client. Simple ids are used as they are, so operators recognise
 * them in `sessions.list`; anything else is hashed, which keeps the key stable per user without
 * letting odd characters into it.
 */
function userKeyPart(user: string): string {
  if (PLAIN_USER.test(user) && !user.includes("..")) return user;
  return `sha256-${createHash("sha256").update(user, "utf8").digest("hex").slice(0, 32)}`;
}
