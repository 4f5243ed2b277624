import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeTelegram, type FakeTelegram } from "../../../fakes/telegram-server.js";

let fake: FakeTelegram;

beforeEach(async () => {
  fake = await startFakeTelegram();
});

afterEach(async () => {
  await fake.close();
});

async function call(method: string, body: Record<string, unknown> = {}, token = fake.token) {
  const response = await fetch(`${fake.url}/bot${token}/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as { ok: boolean; result?: any; error_code?: number; description?: string } };
}

describe("fake Telegram Bot API", () => {
  it("answers 401 Unauthorized for another token", async () => {
    expect(await call("getMe", {}, "1:other")).toEqual({ status: 401, json: { ok: false, error_code: 401, description: "Unauthorized" } });
  });

  it("accepts form-encoded bodies", async () => {
    const response = await fetch(`${fake.url}/bot${fake.token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ chat_id: "42", text: "from a form", reply_parameters: JSON.stringify({ message_id: 3 }) }).toString(),
    });
    expect(response.status).toBe(200);
    expect(fake.messages(42)).toEqual([{ chat_id: "42", text: "from a form", reply_parameters: { message_id: 3 } }]);
  });

  it("holds getUpdates until an update is pushed, and drops what the next offset confirms", async () => {
    const poll = call("getUpdates", { timeout: 5 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const began = Date.now();
    const id = fake.pushMessage({ chatId: 42, fromId: 42, text: "hi" }).update_id!;
    const first = await poll;
    expect(Date.now() - began).toBeLessThan(500);
    expect(first.json.result.map((update: { update_id: number }) => update.update_id)).toEqual([id]);
    expect((await call("getUpdates", { timeout: 0 })).json.result).toHaveLength(1);
    expect((await call("getUpdates", { offset: id + 1, timeout: 0 })).json.result).toEqual([]);
  });

  it("hands out a re-pushed update again even below the offset", async () => {
    const update = fake.pushMessage({ chatId: 42, fromId: 42, text: "twice" });
    await call("getUpdates", { timeout: 0 });
    await call("getUpdates", { offset: update.update_id! + 1, timeout: 0 });
    fake.pushUpdate(update);
    const again = await call("getUpdates", { offset: update.update_id! + 1, timeout: 0 });
    expect(again.json.result).toEqual([update]);
  });

  it("rejects malformed HTML the way Telegram does", async () => {
    const reply = await call("sendMessage", { chat_id: 1, text: "<script>x</script>", parse_mode: "HTML" });
    expect(reply.status).toBe(400);
    expect(reply.json.description).toMatch(/^Bad Request: can't parse entities: Unsupported start tag "script"/);
    expect((await call("sendMessage", { chat_id: 1, text: "<b>ok &amp; fine</b>", parse_mode: "HTML" })).json.result.text).toBe("ok & fine");
    expect(fake.messages()).toHaveLength(1);
  });

  it("answers getUpdates with 409 while a webhook is set or a conflict is simulated", async () => {
    await call("setWebhook", { url: "https://x.example/hook", secret_token: "s" });
    expect((await call("getUpdates", { timeout: 0 })).status).toBe(409);
    await call("deleteWebhook");
    fake.conflictPolling(true);
    expect((await call("getUpdates", { timeout: 0 })).json.description).toMatch(/^Conflict/);
    fake.conflictPolling(false);
    expect((await call("getUpdates", { timeout: 0 })).status).toBe(200);
    expect(fake.getUpdatesCalls).toBe(3);
  });
});
