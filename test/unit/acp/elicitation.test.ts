import type { CreateElicitationRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { Question, QuestionOutcome } from "../../../src/agents/questions/question-broker.js";
import { answerElicitation, type InputAsker } from "../../../src/acp/stdio/elicitation.js";
import { compileForm } from "../../../src/acp/stdio/elicitation-form.js";

const form = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)): CreateElicitationRequest => ({
  sessionId: "s1",
  mode: "form",
  message: "Settings",
  requestedSchema: { type: "object", properties: properties as never, required },
});

/** An asker that answers each round from `replies` (answers by question id), recording what it was asked. */
function scripted(replies: (Record<string, string[]> | QuestionOutcome | "unavailable")[]): InputAsker & { asked: Question[][] } {
  const asked: Question[][] = [];
  return {
    asked,
    async ask({ questions }) {
      asked.push(questions);
      const next = replies.shift() ?? "unavailable";
      if (next === "unavailable" || "status" in next) return next as QuestionOutcome | "unavailable";
      return { status: "answered", answers: next as Record<string, string[]> };
    },
  };
}

const who = { sessionKey: "agent:coder:acp:1", agent: "coder", signal: new AbortController().signal };

describe("an ACP agent's form as questions", () => {
  it("asks choices as options (titles shown, values sent), booleans as True/False, numbers in words; three fields a round", async () => {
    const request = form({
      target: {
        type: "string",
        title: "Target",
        oneOf: [
          { const: "stg", title: "Staging" },
          { const: "prod", title: "Production" },
        ],
      },
      count: { type: "integer", title: "Count", minimum: 1 },
      ok: { type: "boolean", title: "Proceed" },
      tags: { type: "array", title: "Tags", items: { enum: ["a", "b", "c"] } },
    });
    const asker = scripted([{ target: ["Production"], count: ["2"], ok: ["False"] }, { tags: ["a", "c"] }]);
    expect(await answerElicitation(request, who, asker)).toEqual({ action: "accept", content: { target: "prod", count: 2, ok: false, tags: ["a", "c"] } });
    expect(asker.asked.map((round) => round.map((q) => q.questionId))).toEqual([["target", "count", "ok"], ["tags"]]);
    const [target, count, ok] = asker.asked[0]!;
    expect(target).toMatchObject({ header: "Target", question: "Settings\nTarget", options: [{ label: "Staging" }, { label: "Production" }] });
    expect(count).toMatchObject({ options: [] });
    expect(ok).toMatchObject({ options: [{ label: "True" }, { label: "False" }] });
    expect(asker.asked[1]![0]).toMatchObject({ multiSelect: true, options: [{ label: "a" }, { label: "b" }, { label: "c" }] });
  });

  it("asks a round again, saying what did not fit; declines after three misfits", async () => {
    const request = form({ count: { type: "integer", title: "Count", minimum: 1, maximum: 5 } });
    const fixed = scripted([{ count: ["9"] }, { count: ["4"] }]);
    expect(await answerElicitation(request, who, fixed)).toEqual({ action: "accept", content: { count: 4 } });
    expect(fixed.asked[1]![0]!.question).toBe("⚠️ Count: answer a number from 1 to 5\nSettings\nCount");
    const stubborn = scripted([{ count: ["x"] }, { count: ["x"] }, { count: ["x"] }]);
    expect(await answerElicitation(request, who, stubborn)).toEqual({ action: "decline", _meta: { message: "the answers did not fit the form (Count: answer a whole number)" } });
  });

  it("leaves an optional field out when told to: '-' in words, 'Leave out' among options", async () => {
    const request = form({ note: { type: "string", title: "Note" }, mode: { type: "string", title: "Mode", enum: ["fast", "safe"] } }, []);
    const asker = scripted([{ note: ["-"], mode: ["Leave out"] }]);
    expect(await answerElicitation(request, who, asker)).toEqual({ action: "accept", content: {} });
    expect(asker.asked[0]![0]!.question).toBe("Settings\nNote (optional: reply - to leave it out)");
    expect(asker.asked[0]![1]).toMatchObject({ question: "Mode (optional)", options: [{ label: "fast" }, { label: "safe" }, { label: "Leave out" }] });
  });

  it("lists a choice of more than four in the question, answered in words and checked", async () => {
    const request = form({ day: { type: "string", title: "Day", enum: ["mon", "tue", "wed", "thu", "fri"] } });
    const asker = scripted([{ day: ["Sunday"] }, { day: ["WED"] }]);
    expect(await answerElicitation(request, who, asker)).toEqual({ action: "accept", content: { day: "wed" } });
    expect(asker.asked[0]![0]).toMatchObject({ question: "Settings\nDay\nOne of: mon, tue, wed, thu, fri", options: [] });
  });

  it("gives each field a question id the protocol takes, and sends the values under the schema's own names", async () => {
    const request = form({ "Deploy-Target": { type: "string", title: "Target" }, "2fa": { type: "string", title: "Code" }, "a.b": { type: "string" }, a_b: { type: "string" } });
    const asker = scripted([{ deploy_target: ["eu"], f_2fa: ["123"], a_b: ["x"] }, { a_b_2: ["y"] }]);
    expect(await answerElicitation(request, who, asker)).toEqual({ action: "accept", content: { "Deploy-Target": "eu", "2fa": "123", "a.b": "x", a_b: "y" } });
    expect(asker.asked.flat().map((q) => q.questionId)).toEqual(["deploy_target", "f_2fa", "a_b", "a_b_2"]);
  });

  it("cancels when nobody answers or can be asked or the agent withdrew it, and declines what it cannot show, saying why", async () => {
    const request = form({ name: { type: "string", title: "Name" } });
    expect(await answerElicitation(request, who, scripted([{ status: "expired" }]))).toMatchObject({ action: "cancel", _meta: { message: "nobody answered in time" } });
    expect(await answerElicitation(request, who, scripted(["unavailable"]))).toMatchObject({ action: "cancel" });
    const ftp = { sessionId: "s1", mode: "url", message: "Sign in", url: "ftp://example.com/x", elicitationId: "e1" } as CreateElicitationRequest;
    expect(await answerElicitation(ftp, who, scripted([]))).toEqual({
      action: "decline",
      _meta: { message: "OpenClaw cannot show this request: its URL is not an http or https address." },
    });
    const odd = { sessionId: "s1", mode: "_voice", message: "Say it" } as CreateElicitationRequest;
    expect(await answerElicitation(odd, who, scripted([]))).toEqual({
      action: "decline",
      _meta: { message: 'OpenClaw cannot show this request: elicitation mode "_voice" is not supported here.' },
    });
    const withdrawn = new AbortController();
    withdrawn.abort();
    expect(await answerElicitation(request, { ...who, signal: withdrawn.signal }, scripted([{ name: ["x"] }]))).toEqual({
      action: "cancel",
      _meta: { message: "the request was withdrawn" },
    });
    expect(compileForm(form({ blob: { type: "object" } }))).toEqual({ unsupported: 'field "blob" has a type this gateway cannot ask for ("object")' });
  });

  it("asks a URL as a browser step to confirm, and a form without fields as one to allow", async () => {
    const url = { sessionId: "s1", mode: "url", message: "Sign in to GitHub", url: "https://github.com/login/device", elicitationId: "e1" } as CreateElicitationRequest;
    const done = scripted([{ continue: ["I've completed this step"] }]);
    expect(await answerElicitation(url, who, done)).toEqual({ action: "accept" });
    expect(done.asked[0]![0]).toMatchObject({
      header: "Browser step",
      url: "https://github.com/login/device",
      question: 'Sign in to GitHub\n\nhttps://github.com/login/device\n\nOpen the link and complete the step in your browser, then answer "I\'ve completed this step".',
      options: [{ label: "I've completed this step" }, { label: "Decline" }],
    });
    expect(await answerElicitation(url, who, scripted([{ continue: ["Decline"] }]))).toEqual({ action: "decline" });
    const creds = { ...url, url: "https://user:pw@example.com/" } as CreateElicitationRequest;
    expect(compileForm(creds)).toEqual({ unsupported: "its URL holds credentials" });
    const empty = scripted([{ confirm: ["Allow"] }]);
    expect(await answerElicitation(form({}), who, empty)).toEqual({ action: "accept", content: {} });
    expect(empty.asked[0]![0]).toMatchObject({ header: "Confirm", question: "Settings", options: [{ label: "Allow" }, { label: "Decline" }] });
  });
});
