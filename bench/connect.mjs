// connectHelloMs: sequential WebSocket connections, `new WebSocket()` → hello-ok.
import { closeClient, connectHello } from "./lib/ws-client.mjs";
import { percentile, round } from "./lib/util.mjs";

export async function measureConnectHello({ gw, url, token, count = 50, timeoutMs = 5000 }) {
  const times = [];
  for (let i = 1; i <= count; i++) {
    const step = `connect-hello #${i}`;
    gw.ensureRunning(step);
    const { ws, helloMs } = await connectHello(url, token, { timeoutMs, step });
    times.push(helloMs);
    // Fully closed before the next one, so connections never overlap.
    await closeClient(ws);
  }
  return {
    count,
    p50: round(percentile(times, 50), 2),
    p95: round(percentile(times, 95), 2),
    min: round(Math.min(...times), 2),
    max: round(Math.max(...times), 2),
  };
}
