import WebSocket from "ws";
import { readLiveLock } from "../../gateway/state-lock.js";
import { localGatewayTlsPin, type GatewayTlsConfig } from "../../gateway/tls/gateway-tls-files.js";
import { pinnedWebSocketOptions } from "../../infra/tls/pinned-tls.js";
import { probeStatus } from "../../infra/tls/probe-status.js";
import type { Finding } from "./finding.js";

/**
 * `--deep`: asks the running gateway itself, without credentials, whether it lets a stranger in:
 * a WebSocket `connect` with no token and an unauthenticated `/v1/models` (over TLS, pinned to the
 * certificate file, when `gateway.tls` is on).
 */
export async function liveFindings(stateDir: string, timeoutMs: number, tls?: GatewayTlsConfig): Promise<Finding[]> {
  const live = readLiveLock(stateDir);
  if (!live)
    return [
      {
        id: "deep.not-running",
        severity: "info",
        title: "no gateway is running for this state dir; the live checks were skipped",
        fix: "start it (`openclaw gateway start`) and run the audit again",
      },
    ];
  const host = live.host === "0.0.0.0" || live.host === "::" ? "127.0.0.1" : live.host;
  const findings: Finding[] = [];
  let pin: string | undefined;
  if (tls?.enabled === true) {
    try {
      pin = localGatewayTlsPin(tls, stateDir);
    } catch (err) {
      return [
        {
          id: "deep.tls-unverifiable",
          severity: "warn",
          title: `the live checks were skipped: ${(err as Error).message}`,
          fix: "fix gateway.tls.certPath, then run the audit again",
        },
      ];
    }
  }
  const [ws, http] = pin ? ["wss", "https"] : ["ws", "http"];
  if (await connectsWithoutToken(`${ws}://${host}:${live.port}`, timeoutMs, pin)) {
    findings.push({
      id: "deep.ws-open",
      severity: live.host.startsWith("127.") ? "warn" : "critical",
      title: `the running gateway (pid ${live.pid}) accepted a WebSocket connect without credentials`,
      fix: "set gateway.auth.mode token and restart the gateway",
    });
  }
  if ((await probeStatus(`${http}://${host}:${live.port}/v1/models`, { timeoutMs, ...(pin ? { tlsFingerprint: pin } : {}) })) === 200) {
    findings.push({
      id: "deep.http-open",
      severity: "critical",
      title: "the running gateway answered /v1/models without credentials",
      fix: "set gateway.auth.mode token and restart the gateway",
    });
  }
  return findings;
}

function connectsWithoutToken(url: string, timeoutMs: number, pin: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, pinnedWebSocketOptions(pin));
    const done = (accepted: boolean) => {
      clearTimeout(timer);
      ws.terminate();
      resolve(accepted);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    ws.on("error", () => done(false));
    ws.on("close", () => done(false));
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as { type?: string; event?: string; id?: string; ok?: boolean };
      if (frame.type === "event" && frame.event === "connect.challenge") {
        ws.send(
          JSON.stringify({
            type: "req",
            id: "audit",
            method: "connect",
            params: { minProtocol: 3, maxProtocol: 4, client: { id: "openclaw-probe", version: "audit", platform: process.platform, mode: "probe" }, role: "operator", scopes: [] },
          }),
        );
      } else if (frame.type === "res" && frame.id === "audit") done(frame.ok === true);
    });
  });
}
