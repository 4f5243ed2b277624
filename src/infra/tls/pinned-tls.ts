import type { ClientRequest } from "node:http";
import { TLSSocket } from "node:tls";
import { normalizeTlsFingerprint } from "./tls-fingerprint.js";

/** The server's certificate is not the pinned one: nothing was sent to it. */
export class TlsPinError extends Error {
  readonly code = "TLS_PIN_MISMATCH";
}

/**
 * Ends `request` (sends its headers and body) only once the TLS handshake has shown a certificate
 * whose SHA-256 fingerprint is `expected`; any other certificate, or a connection without TLS,
 * destroys the request with a TlsPinError before a byte of it leaves. For a self-signed gateway
 * certificate the request is made with `rejectUnauthorized: false`: the pin is the trust.
 */
export function endWhenPinned(request: ClientRequest, expected: string, body?: string | Buffer): void {
  const pin = normalizeTlsFingerprint(expected);
  request.once("socket", (socket) => {
    if (!(socket instanceof TLSSocket)) {
      request.destroy(new TlsPinError("the gateway connection is not TLS, so its certificate cannot be checked against the pinned fingerprint"));
      return;
    }
    const check = () => {
      if (request.destroyed) return;
      const seen = normalizeTlsFingerprint(socket.getPeerCertificate()?.fingerprint256);
      if (!pin || seen !== pin) {
        request.destroy(
          new TlsPinError(
            seen
              ? `the gateway's TLS certificate (sha256 ${seen}) is not the pinned one (sha256 ${pin ?? expected}): if the gateway's certificate was renewed, update the pin (gateway.remote.tlsFingerprint); otherwise something else answers at this address`
              : "the gateway showed no TLS certificate to check against the pinned fingerprint",
          ),
        );
        return;
      }
      request.end(body);
    };
    // A socket reused from a keep-alive pool is past its handshake: checked at once.
    if ((socket as TLSSocket & { secureConnecting?: boolean }).secureConnecting) {
      socket.once("secureConnect", check);
      request.once("close", () => socket.off("secureConnect", check));
    } else check();
  });
}

/**
 * `ws` client options that pin a `wss://` server to `fingerprint` (the request is ended by
 * endWhenPinned); none for an unpinned connection.
 */
export function pinnedWebSocketOptions(fingerprint: string | undefined): { rejectUnauthorized?: false; finishRequest?: (request: ClientRequest) => void } {
  return fingerprint ? { rejectUnauthorized: false, finishRequest: (request) => endWhenPinned(request, fingerprint) } : {};
}
