import net from "node:net";

/**
 * A port connections to 127.0.0.1 are refused on for the whole test: port 1. The system never
 * hands it out as an ephemeral port, so no fake server or gateway of a test running beside this
 * one can take it (a port handed out and taken back, as `closedPort` gives, can be).
 */
export const REFUSED_PORT = 1;

/** A free port to listen on: one the system handed out and took back (another process may take it first). */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Whether something accepts TCP connections on `host`:`port` (127.0.0.1 unless given) right now. */
export function acceptsConnections(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
