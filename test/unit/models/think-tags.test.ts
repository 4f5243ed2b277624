import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ThinkTagSplitter, type TextSegment } from "../../../src/models/think-tags.js";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
import { PROVIDER_STREAMS } from "./provider-streams.js";
import { fakeModel, last, makeRequest, run, textOf } from "./stream-helpers.js";

/** Think tags in a reply's text: reasoning, not the answer (models on OpenAI-compatible local servers write them). */

function split(chunks: string[]): { segments: TextSegment[]; wrapped: string | undefined } {
  const splitter = new ThinkTagSplitter();
  const segments: TextSegment[] = [];
  const add = (parts: TextSegment[]) => {
    for (const part of parts) {
      const previous = segments.at(-1);
      if (previous?.kind === part.kind) previous.text += part.text;
      else segments.push({ ...part });
    }
  };
  for (const chunk of chunks) add(splitter.push(chunk));
  add(splitter.end());
  return { segments, wrapped: splitter.endsAsWrappedAnswer() };
}

describe("ThinkTagSplitter", () => {
  it("a closed block is reasoning; the whitespace after it is not part of the answer", () => {
    expect(split(["<think>Add 2 and 2.</think>\n\nIt is 4."]).segments).toEqual([
      { kind: "thinking", text: "Add 2 and 2." },
      { kind: "text", text: "It is 4." },
    ]);
  });

  it("reads tags split over chunks, in either spelling and any case", () => {
    expect(split(["<th", "ink>plan", "</thi", "nk>answer <b>bold</b> ", "<THINKING>more</thinking>", " end"]).segments).toEqual([
      { kind: "thinking", text: "plan" },
      { kind: "text", text: "answer <b>bold</b> " },
      { kind: "thinking", text: "more" },
      { kind: "text", text: " end" },
    ]);
  });

  it("an unclosed tag after answer text keeps its rest out of the answer", () => {
    const { segments, wrapped } = split(["The answer is 4. <think>but wait", " maybe 5"]);
    expect(segments).toEqual([
      { kind: "text", text: "The answer is 4. " },
      { kind: "thinking", text: "but wait maybe 5" },
    ]);
    expect(wrapped).toBeUndefined();
  });

  it("a reply that is one unclosed tag and nothing else is the answer after all", () => {
    expect(split(["<think>", "Just this."]).wrapped).toBe("Just this.");
    expect(split(["<think>x</think>y"]).wrapped).toBeUndefined();
  });

  it("a closing tag without an opening one is dropped; text that only looks like a tag stays", () => {
    expect(split(["a < b and </think>c <thinker>"]).segments).toEqual([{ kind: "text", text: "a < b and c <thinker>" }]);
    expect(split(["ends with <thi"]).segments).toEqual([{ kind: "text", text: "ends with <thi" }]);
  });
});

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe.each(PROVIDER_STREAMS.filter((p) => p.api === "openai-completions" || p.api === "ollama"))("$api: think tags in the streamed text", ({ api, stream }) => {
  it("become the message's thinking; the answer is the rest", async () => {
    server.enqueue({ text: "<think>The user wants a sum.</think>\n\nThe sum is 4." });
    const events = await run(stream, makeRequest(fakeModel(server, api)));
    expect(textOf(events)).toBe("The sum is 4.");
    expect(textOf(events, "thinking_delta")).toBe("The user wants a sum.");
    const done = last(events);
    expect(done.type === "done" && done.message.content).toEqual([
      { type: "thinking", thinking: "The user wants a sum." },
      { type: "text", text: "The sum is 4." },
    ]);
  });

  it("a reply wrapped in one unclosed tag is delivered as the answer", async () => {
    server.enqueue({ text: "<think>Only this came back." });
    const done = last(await run(stream, makeRequest(fakeModel(server, api))));
    expect(done.type === "done" && done.message.content).toEqual([{ type: "text", text: "Only this came back." }]);
  });
});
