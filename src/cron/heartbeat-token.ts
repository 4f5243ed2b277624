/** The reply that means "nothing needs attention" in heartbeat and scheduled runs. */
export const HEARTBEAT_OK = "HEARTBEAT_OK";

/**
 * Removes `HEARTBEAT_OK` at the start or the end of a reply (markup around it too); a token in
 * the middle is left alone. `acked` says whether the token was there.
 */
export function stripHeartbeatToken(text: string): { text: string; acked: boolean } {
  let rest = text.trim();
  let acked = false;
  const edge = /^[\s*_`~]*HEARTBEAT_OK[\s*_`~.!]*/;
  const tail = /[\s*_`~]*HEARTBEAT_OK[\s*_`~.!]*$/;
  if (edge.test(rest)) {
    rest = rest.replace(edge, "");
    acked = true;
  }
  if (tail.test(rest)) {
    rest = rest.replace(tail, "");
    acked = true;
  }
  return { text: rest.trim(), acked };
}
