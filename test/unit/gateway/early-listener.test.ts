import { describe, expect, it } from "vitest";
import { EarlyListener } from "../../../src/gateway/listen.js";

describe("EarlyListener", () => {
  it("answers liveness 200 and readiness 503 before the app attaches, then hands over", async () => {
    const listener = new EarlyListener();
    const port = await listener.listen(0, "127.0.0.1");
    try {
      const live = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(live.status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ ok: false, status: "starting" });
      listener.attach((_req, res) => res.end("app"), () => {});
      expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).text()).toBe("app");
    } finally {
      await listener.close();
    }
  });

  it("reports a port already in use", async () => {
    const a = new EarlyListener();
    const port = await a.listen(0, "127.0.0.1");
    const b = new EarlyListener();
    await expect(b.listen(port, "127.0.0.1")).rejects.toMatchObject({ code: "EADDRINUSE" });
    await a.close();
  });
});
