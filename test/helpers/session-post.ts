import type { GatewayProcess } from "./gateway-process.js";

/** POSTs `body` as JSON to the gateway's HTTP `path` with its token, in the session named by `x-openclaw-session-key`. */
export function postToSession(gw: GatewayProcess, path: string, sessionKey: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${gw.httpUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${gw.token}`, "content-type": "application/json", "x-openclaw-session-key": sessionKey },
    body: JSON.stringify(body),
  });
}
