import { describe, expect, it } from "vitest";
import { clientErrorResponse } from "../../../src/gateway/http/client-error-response.js";

const error = (code: string) => Object.assign(new Error(code), { code });

describe("clientErrorResponse", () => {
  it.each([
    ["HPE_HEADER_OVERFLOW", "431 Request Header Fields Too Large", "Request headers too large"],
    ["ERR_HTTP_REQUEST_TIMEOUT", "408 Request Timeout", "Request not received in time"],
    ["HPE_INVALID_HEADER_TOKEN", "400 Bad Request", "Malformed HTTP request"],
  ])("%s → %s", (code, status, message) => {
    const raw = clientErrorResponse(error(code));
    const [head, body] = raw.split("\r\n\r\n");
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status}\\r\\n`));
    expect(head).toContain("Connection: close");
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body!)}`);
    expect(JSON.parse(body!)).toEqual({ error: { message, type: "invalid_request_error" } });
  });
});
