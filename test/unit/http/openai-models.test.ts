import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { startOpenAiServer, TOKEN, type TestServer } from "./openai-test-server.js";

let server: TestServer;
let client: OpenAI;
const auth = { authorization: `Bearer ${TOKEN}` };
beforeAll(async () => {
  server = await startOpenAiServer();
  client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: TOKEN, maxRetries: 0 });
});
afterAll(() => server.close());

describe("GET /v1/models", () => {
  it("lists openclaw, openclaw/default and one entry per agent", async () => {
    const res = await fetch(`${server.base}/v1/models`, { headers: auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; data: Record<string, unknown>[] };
    expect(body.object).toBe("list");
    expect(body.data.map((m) => m.id)).toEqual(["openclaw", "openclaw/default", "openclaw/main", "openclaw/ops"]);
    expect(body.data[0]).toEqual({ id: "openclaw", object: "model", created: 0, owned_by: "openclaw", permission: [] });
  });

  it("works with the SDK's paginated list", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain("openclaw/ops");
  });
});

describe("GET /v1/models/{id}", () => {
  it.each(["openclaw", "openclaw/default", "openclaw%2Fdefault", "openclaw/ops", "openclaw%2Fops", "OpenClaw%2FOps"])("finds %s", async (id) => {
    const res = await fetch(`${server.base}/v1/models/${id}`, { headers: auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; object: string };
    expect(body.object).toBe("model");
    expect(body.id).toBe(decodeURIComponent(id).toLowerCase());
  });

  it("the SDK retrieves an id with a slash", async () => {
    const model = await client.models.retrieve("openclaw/main");
    expect(model.id).toBe("openclaw/main");
    expect(model.owned_by).toBe("openclaw");
  });

  it("unknown ids → 404 model_not_found", async () => {
    for (const id of ["gpt-4o", "openclaw/ghost", "openclaw/ops/extra", "openclaw%252Fops"]) {
      const res = await fetch(`${server.base}/v1/models/${id}`, { headers: auth });
      expect(res.status, id).toBe(404);
      const body = (await res.json()) as { error: Record<string, string> };
      expect(body.error).toMatchObject({ type: "invalid_request_error", param: "model", code: "model_not_found" });
    }
    expect(await client.models.retrieve("openclaw/ghost").catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });
});
