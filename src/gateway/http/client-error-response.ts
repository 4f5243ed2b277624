/**
 * The raw answer to a request Node's HTTP parser refused, in OpenAI's error shape (every client on
 * this port can read it): 431 for oversized headers, 408 when the request did not arrive in time,
 * 400 for anything malformed. The connection closes after it.
 */
export function clientErrorResponse(err: NodeJS.ErrnoException): string {
  const [status, message] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? ["431 Request Header Fields Too Large", "Request headers too large"]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? ["408 Request Timeout", "Request not received in time"]
        : ["400 Bad Request", "Malformed HTTP request"];
  const body = JSON.stringify({ error: { message, type: "invalid_request_error" } });
  return `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
