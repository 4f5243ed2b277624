import http from "node:http";
import type { AddressInfo } from "node:net";
import type { UrlNetwork } from "../../src/gateway/http/openai/url-part-fetch.js";

/** A real HTTP server on loopback for tests that fetch request parts by URL. */
export async function startLoopbackUrlServer(handler: http.RequestListener): Promise<{ port: number; close(): void }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Stands in for DNS and the address check: every host name is that loopback server. */
export const TO_LOOPBACK: UrlNetwork = {
  lookup: (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
    else callback(null, "127.0.0.1", 4);
  },
  blocks: () => false,
};
