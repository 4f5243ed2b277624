import type { WebSocket } from "ws";

interface ReceiverWithLimit {
  _maxPayload: number;
}

/**
 * Raises the largest frame a socket accepts. Sockets start at the pre-authentication limit, so
 * `ws` refuses an oversized frame from its header (close 1009) before buffering any of it; a
 * connection that completed the handshake is raised to the full limit. `ws` has no public setter:
 * this writes its receiver's limit field (ws is pinned exactly in package.json, and a unit test
 * fails if the field moves), and throws rather than silently keeping the small limit.
 */
export function raiseMaxPayload(ws: WebSocket, maxPayload: number): void {
  const receiver = (ws as unknown as { _receiver?: Partial<ReceiverWithLimit> | null })._receiver;
  if (!receiver || typeof receiver._maxPayload !== "number") throw new Error("ws receiver has no payload limit to raise (ws internals changed?)");
  receiver._maxPayload = maxPayload;
}
