import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveAcpSettings } from "../../../src/acp/config.js";
import type { AcpSessionManager } from "../../../src/acp/control-plane/manager.js";
import type { AcpRuntimeEvent } from "../../../src/acp/runtime/types.js";
import { AcpBoundChats } from "../../../src/channels/acp-bound-chats.js";
import { BoundReplyBlocks } from "../../../src/channels/acp-bound-reply-blocks.js";
import type { DeliveryTarget } from "../../../src/channels/outbound/delivery-ledger.js";
import pino from "pino";
import { waitUntil } from "../../helpers/reliability.js";

const words = (text: string): AcpRuntimeEvent => ({ type: "text_delta", text, stream: "output", tag: "agent_message_chunk" });

describe("a bound chat's reply in blocks", () => {
  it("sends what is written whenever the agent pauses, in order, and the rest at the end", async () => {
    const sent: string[] = [];
    const blocks = new BoundReplyBlocks({ coalesceIdleMs: 20, maxChunkChars: 800 }, async (n, text) => void sent.push(`${n}:${text}`));
    blocks.push("Reading ");
    blocks.push("the file. ");
    await new Promise((r) => setTimeout(r, 80));
    expect(sent).toEqual(["0:Reading the file."]);
    blocks.push("Done.");
    await blocks.finish();
    expect(sent).toEqual(["0:Reading the file.", "1:Done."]);
    expect(blocks.sent).toBe(2);
  });

  it("cuts a long run of text at its last paragraph, line or word break, dropping nothing", async () => {
    const sent: string[] = [];
    const blocks = new BoundReplyBlocks({ coalesceIdleMs: 3_600_000, maxChunkChars: 12 }, async (_n, text) => void sent.push(text));
    blocks.push("one two\n\nthree four five sixseveneightnine");
    await blocks.finish();
    expect(sent).toEqual(["one two", "three four", "five", "sixseveneigh", "tnine"]);
    expect(sent.join("")).toBe("one twothree fourfivesixseveneightnine");
  });

  it("never splits a character outside the Basic Multilingual Plane", async () => {
    const sent: string[] = [];
    const blocks = new BoundReplyBlocks({ coalesceIdleMs: 3_600_000, maxChunkChars: 3 }, async (_n, text) => void sent.push(text));
    blocks.push("ab😀cd");
    await blocks.finish();
    expect(sent).toEqual(["ab", "😀c", "d"]);
  });

  it("reports a block that could not be sent once the turn ends", async () => {
    const blocks = new BoundReplyBlocks({ coalesceIdleMs: 3_600_000, maxChunkChars: 800 }, async () => {
      throw new Error("ledger full");
    });
    blocks.push("text");
    await expect(blocks.finish()).rejects.toThrow("ledger full");
  });
});

describe("AcpBoundChats and acp.stream.deliveryMode", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A bound chat whose agent writes `script` (a pause between its parts), then ends as `ending` says; what the chat got, once `expected` messages. */
  async function boundTurn(deliveryMode: "live" | "final_only", script: string[], expected: number, ending: { ok: true } | { ok: false; error: string } = { ok: true }) {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "acp-bound-"));
    dirs.push(stateDir);
    const delivered: { id: string; text: string }[] = [];
    const settings = resolveAcpSettings({ acp: { enabled: true, agents: { coder: { command: "coder-acp" } }, stream: { deliveryMode, coalesceIdleMs: 20 } } } as never);
    const manager = {
      list: () => [],
      createSession: () => ({ sessionKey: "agent:coder:acp:1" }),
      close: async () => {},
      runTurn: async (input: { onEvent?: (e: AcpRuntimeEvent) => void }) => {
        for (const [i, part] of script.entries()) {
          if (i > 0) await new Promise((r) => setTimeout(r, 80));
          input.onEvent?.(words(part));
        }
        return ending.ok ? { ok: true, text: script.join("") } : { ok: false, text: script.join(""), error: { message: ending.error } };
      },
    } as unknown as AcpSessionManager;
    const chats = new AcpBoundChats({
      stateDir,
      manager,
      settings: () => settings,
      defaultCwd: () => stateDir,
      turnTimeoutSeconds: () => 0,
      deliver: async (id, _target, text) => void delivered.push({ id, text }),
      typing: () => () => {},
      logger: pino({ level: "silent" }),
    });
    const target = { channel: "telegram", accountId: "default", chatId: "1" } as DeliveryTarget;
    await chats.submit({ binding: { type: "acp", agentId: "coder", match: { channel: "telegram" } } as never, key: "k1", text: "go", target, chatSessionKey: "agent:main:main" });
    await waitUntil(() => delivered.length >= expected, 5_000, `${expected} messages in the chat`);
    // Nothing more comes once the turn is over (its pending record is closed).
    await waitUntil(() => fs.readFileSync(path.join(stateDir, "acp", "bound-turns.jsonl"), "utf8").includes('"done":1'), 5_000, "the turn recorded as finished");
    chats.close();
    return delivered;
  }

  it("live: the chat gets what the agent wrote before each pause, then the rest, and no whole reply again", async () => {
    expect(await boundTurn("live", ["First part. ", "Second part."], 2)).toEqual([
      { id: "acp-bound:k1:0", text: "First part." },
      { id: "acp-bound:k1:1", text: "Second part." },
    ]);
  });

  it("final_only: the chat gets the reply whole, once, when the turn ends", async () => {
    expect(await boundTurn("final_only", ["First part. ", "Second part."], 1)).toEqual([{ id: "acp-bound:k1", text: "First part. Second part." }]);
  });

  it("live: a turn that fails after writing is told after what it wrote", async () => {
    expect(await boundTurn("live", ["Working. ", "Still."], 3, { ok: false, error: "the agent crashed" })).toEqual([
      { id: "acp-bound:k1:0", text: "Working." },
      { id: "acp-bound:k1:1", text: "Still." },
      { id: "acp-bound:k1", text: "⚠️ ACP agent `coder`: the agent crashed" },
    ]);
  });
});
