import http from "node:http";
import net from "node:net";

/**
 * A reverse proxy on 127.0.0.1 that plays an identity-aware one (oauth2-proxy, Pomerium): it
 * forwards HTTP and WebSocket upgrades to the gateway, drops any identity header the client sent,
 * and adds the user it "authenticated" (`user()`, none when undefined) with the forwarded chain.
 */
export async function startIdentityProxy(targetPort: number, user: () => string | undefined): Promise<{ port: number; close(): Promise<void> }> {
  const forwardHeaders = (incoming: http.IncomingHttpHeaders): http.OutgoingHttpHeaders => {
    const headers: http.OutgoingHttpHeaders = { ...incoming };
    for (const name of Object.keys(headers)) if (name.startsWith("x-forwarded-")) delete headers[name];
    const who = user();
    return { ...headers, "x-forwarded-for": "203.0.113.20", "x-forwarded-proto": "http", ...(who ? { "x-forwarded-user": who } : {}) };
  };
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: "127.0.0.1", port: targetPort, method: req.method, path: req.url, headers: forwardHeaders(req.headers) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("upgrade", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const upstream = net.connect(targetPort, "127.0.0.1", () => {
      let request = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (const [name, value] of Object.entries(forwardHeaders(req.headers))) {
        for (const one of [value].flat()) if (one !== undefined) request += `${name}: ${one}\r\n`;
      }
      upstream.write(`${request}\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
