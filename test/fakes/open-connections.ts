import type { Server } from "node:http";
import type { Socket } from "node:net";

/** The TCP connections a fake's HTTP server holds open now (WebSocket upgrades included). */
export interface OpenConnections {
  /** Connections open now. */
  readonly size: number;
  /**
   * Destroys every open connection, keeping the listener. Bytes a client sent that the server has
   * not read yet (a request a killed client sent just before it died) are then never parsed.
   */
  destroyAll(): void;
}

/** Tracks `server`'s connections from now on; call it before the server listens. */
export function trackConnections(server: Server): OpenConnections {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return {
    get size() {
      return sockets.size;
    },
    destroyAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
