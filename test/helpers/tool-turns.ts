import { expect } from "vitest";
import type { FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "./gateway-process.js";

/** One `/v1/chat/completions` turn as `user` (a kept session per user); the reply's text. */
export async function v1Chat(gw: GatewayProcess, user: string, text: string): Promise<string> {
  const res = await fetch(`${gw.httpUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${gw.token}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "openclaw", user, messages: [{ role: "user", content: text }] }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
}

/** The tool results the model was sent in its request number `index`. */
export function toolResultsIn(model: FakeModelServer, index: number): string[] {
  const messages = (model.requests[index]!.body as { messages: { role: string; content: unknown }[] }).messages;
  return messages.filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

/** The names of the tools the model was offered in its request number `index`. */
export function toolsOfferedIn(model: FakeModelServer, index: number): string[] {
  return ((model.requests[index]!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
}

/** The description the model was given for tool `name` in its request number `index`. */
export function toolDescriptionIn(model: FakeModelServer, index: number, name: string): string | undefined {
  const tools = (model.requests[index]!.body as { tools?: { function: { name: string; description?: string } }[] }).tools ?? [];
  return tools.find((t) => t.function.name === name)?.function.description;
}
