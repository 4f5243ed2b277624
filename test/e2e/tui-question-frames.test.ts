import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { askingModel } from "../helpers/ask-user-model.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { readTuiFrames } from "../helpers/tui-fixture.js";
import { TestSocket, type Frame } from "../helpers/ws-client.js";

/**
 * OpenClaw's own terminal UI (`openclaw tui`, 2026.9.6 from npm) answering the agent's ask_user
 * question on this gateway: the request frames it sent (start-up, "pick a target", then its
 * question prompt's answer, option 2, as `question.resolve`), recorded once through a WebSocket
 * proxy and replayed here. The token and the question's id (new on every run) are placeholders,
 * and the connect frame's device identity is left out: its signature covers the recording's nonce.
 */
const frames: Frame[] = readTuiFrames("openclaw-tui-2026.9.6-question.jsonl");

/** The fields OpenClaw's TUI accepts in a question record and in each of its questions (its schemas are closed). */
const RECORD_FIELDS = ["id", "questions", "agentId", "sessionKey", "runId", "createdAtMs", "expiresAtMs", "status", "answers", "resolvedBy"];
const QUESTION_FIELDS = ["questionId", "header", "question", "url", "options", "multiSelect", "isOther", "isSecret", "secretStore", "secretStoreExisting"];

let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
const responses = new Map<string, Frame>();
let asked: Frame;

beforeAll(async () => {
  server = await startFakeModelServer();
  server.setResponder(askingModel);
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir) } });
  sock = await TestSocket.open(gw.url);
  await sock.waitFor((f) => f.event === "connect.challenge");
  for (const frame of frames) {
    let sent = frame;
    if (frame.method === "connect") sent = { ...frame, params: { ...frame.params, auth: { token: gw.token } } };
    if (frame.method === "question.resolve") sent = { ...frame, params: { ...frame.params, id: asked.payload.id } };
    sock.send(sent);
    const res = await sock.waitFor((f) => f.type === "res" && f.id === frame.id, 15_000);
    responses.set(frame.id, res);
    // The TUI answers the question its prompt shows, then waits for the run to end.
    if (frame.method === "chat.send" && res.ok) asked = await sock.waitFor((f) => f.event === "question.requested", 15_000);
    if (frame.method === "question.resolve" && res.ok) await sock.waitFor((f) => f.event === "chat" && ["final", "error", "aborted"].includes(f.payload.state), 15_000);
  }
}, 120_000);

afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

const answerTo = (method: string) => responses.get(frames.find((f) => f.method === method)!.id)!;

describe("OpenClaw's TUI answering ask_user, replayed", () => {
  it("every request the TUI sends is answered", () => {
    const failed = frames.filter((f) => !responses.get(f.id)!.ok).map((f) => `${f.method}: ${responses.get(f.id)!.error.message}`);
    expect(failed).toEqual([]);
  });

  it("the question reaches the TUI as a record its closed schema accepts", () => {
    const record = asked.payload;
    expect(Object.keys(record).filter((key) => !RECORD_FIELDS.includes(key))).toEqual([]);
    for (const question of record.questions) expect(Object.keys(question).filter((key) => !QUESTION_FIELDS.includes(key))).toEqual([]);
    expect(record).toMatchObject({ sessionKey: "agent:main:tui-question", status: "pending", questions: [{ questionId: "deploy_target", header: "Target", isOther: true }] });
    expect(record.questions[0].header.length).toBeLessThanOrEqual(12);
  });

  it("its answer (question.resolve with a resolutionId) ends the question, and the run goes on with the chosen option", () => {
    expect(answerTo("question.resolve").payload).toEqual({ status: "answered", answers: { answers: { deploy_target: ["Production"] } } });
    const final = sock.frames.find((f) => f.event === "chat" && f.payload.state === "final" && f.payload.sessionKey === "agent:main:tui-question")!;
    expect(final.payload.message.content[0].text).toBe("Result: Target: Production");
  });
});
