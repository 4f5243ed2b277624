/** A user-written Slack target, parsed: a conversation to post in, or a user whose DM must be opened. */
export type ParsedSlackTarget = { kind: "conversation"; id: string } | { kind: "user"; id: string };

const CONVERSATION_ID = /^[CGD][A-Z0-9]{2,}$/;
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

/**
 * `channel:C…` / bare `C…`, `G…`, `D…` → that conversation; `user:U…` / bare `U…`, `W…` → the
 * user's DM. A `slack:` prefix is ignored. Slack ids are upper case; session keys lower-case them,
 * so a prefixed id is upper-cased back (a bare word is not, or "general" would pass as an id).
 * Channel names are refused: they are not unique and can be renamed.
 */
export function parseSlackTarget(raw: string): ParsedSlackTarget {
  const target = raw.trim().replace(/^slack:/i, "");
  if (target.startsWith("#")) {
    throw new Error(`Slack target ${JSON.stringify(raw)} is a channel name; use the channel id instead (channel:C…, shown in the channel's details).`);
  }
  const prefixed = /^(channel|user):(.*)$/i.exec(target);
  const kind = prefixed?.[1]?.toLowerCase();
  const id = prefixed ? prefixed[2]!.trim().toUpperCase() : target;
  if (kind !== "user" && CONVERSATION_ID.test(id)) return { kind: "conversation", id };
  if (kind !== "channel" && USER_ID.test(id)) return { kind: "user", id };
  throw new Error(`Slack target ${JSON.stringify(raw)} is not understood; use channel:<C… id> or user:<U… id>.`);
}
