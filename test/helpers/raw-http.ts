import net from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  raw: string;
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and reads until the server closes
 * (the request carries `Connection: close`). For requests no HTTP client will send, such as
 * control characters inside a header value.
 */
export function rawHttp(port: number, request: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("raw HTTP request timed out"));
    }, timeoutMs);
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", () => {}); // a reset after the response is fine; parse what arrived
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString("latin1");
      const [head = "", ...rest] = raw.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(":");
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      let body = rest.join("\r\n\r\n");
      if (headers["transfer-encoding"]?.includes("chunked")) body = dechunk(body);
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body, raw });
    });
    socket.write(request);
  });
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const nl = rest.indexOf("\r\n");
    if (nl < 0) return out;
    const size = parseInt(rest.slice(0, nl), 16);
    if (!size) return out;
    out += rest.slice(nl + 2, nl + 2 + size);
    rest = rest.slice(nl + 2 + size + 2);
  }
}

/** A POST with a JSON body and the given extra header lines, byte for byte. */
export function rawJsonPost(pathname: string, body: string, headerLines: string[]): Buffer {
  const bytes = Buffer.from(body, "utf8");
  const head = [`POST ${pathname} HTTP/1.1`, "Host: 127.0.0.1", "Content-Type: application/json", `Content-Length: ${bytes.length}`, "Connection: close", ...headerLines].join(
    "\r\n",
  );
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), bytes]);
}
