import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StatusReactions, toolStatus, type ReactionPort } from "../../../../src/channels/outbound/status-reactions.js";

/** A platform that records what the message shows: `replace` as Telegram, else reactions add up and are taken back. */
function platform(kind: "replace" | "add", emojiFor: ReactionPort["emojiFor"] = (_key, wanted) => wanted) {
  const shown = new Set<string>();
  const calls: string[] = [];
  const port: ReactionPort = {
    set: async (emoji) => {
      calls.push(`+${emoji}`);
      if (kind === "replace") shown.clear();
      shown.add(emoji);
    },
    ...(kind === "add"
      ? {
          remove: async (emoji: string) => {
            calls.push(`-${emoji}`);
            shown.delete(emoji);
          },
        }
      : {}),
    emojiFor,
  };
  return { port, shown, calls };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("status reactions", () => {
  it("queued at once, a status only after the quiet time, done held, then the ack emoji again; one reaction on the message throughout", async () => {
    const p = platform("add");
    const status = new StatusReactions(p.port, "👀", () => {});
    status.queued();
    await vi.advanceTimersByTimeAsync(0);
    expect([...p.shown]).toEqual(["👀"]);
    status.thinking();
    status.tool("exec");
    await vi.advanceTimersByTimeAsync(699);
    expect([...p.shown]).toEqual(["👀"]);
    await vi.advanceTimersByTimeAsync(1);
    // Only the latest status of a burst is shown.
    expect(p.calls).toEqual(["+👀", "+💻", "-👀"]);
    const done = status.finish(true);
    await vi.advanceTimersByTimeAsync(0);
    expect([...p.shown]).toEqual(["✅"]);
    await vi.advanceTimersByTimeAsync(1_500);
    await done;
    expect([...p.shown]).toEqual(["👀"]);
    status.thinking();
    await vi.advanceTimersByTimeAsync(5_000);
    expect([...p.shown]).toEqual(["👀"]);
  });

  it("a status asked for before the ack is shown still follows it", async () => {
    const p = platform("replace");
    const status = new StatusReactions(p.port, "👀", () => {});
    status.thinking();
    status.queued();
    await vi.advanceTimersByTimeAsync(700);
    expect(p.calls).toEqual(["+👀", "+🧠"]);
  });

  it("no news for 10 s shows ⏳ and for 30 s ⚠️; an error is held longer", async () => {
    const p = platform("replace");
    const status = new StatusReactions(p.port, "👀", () => {});
    status.queued();
    await vi.advanceTimersByTimeAsync(10_000);
    expect([...p.shown]).toEqual(["⏳"]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect([...p.shown]).toEqual(["⚠️"]);
    void status.finish(false);
    await vi.advanceTimersByTimeAsync(2_499);
    expect([...p.shown]).toEqual(["❌"]);
    await vi.advanceTimersByTimeAsync(1);
    expect([...p.shown]).toEqual(["👀"]);
    expect(p.calls).toEqual(["+👀", "+⏳", "+⚠️", "+❌", "+👀"]);
  });

  it("shows what the platform can: its stand-in, or nothing for a status it has no emoji for", async () => {
    const p = platform("replace", (key, wanted) => (key === "thinking" ? "🤔" : key === "compacting" ? undefined : wanted));
    const status = new StatusReactions(p.port, "👀", () => {});
    status.queued();
    status.thinking();
    await vi.advanceTimersByTimeAsync(700);
    status.compacting();
    await vi.advanceTimersByTimeAsync(700);
    expect(p.calls).toEqual(["+👀", "+🤔"]);
  });

  it("a platform that refuses is reported, and the next status still goes out", async () => {
    const errors: string[] = [];
    let refuse = true;
    const status = new StatusReactions(
      {
        set: async (emoji) => {
          if (refuse) throw new Error(`no ${emoji}`);
        },
        emojiFor: (_key, wanted) => wanted,
      },
      "👀",
      (err) => errors.push(err.message),
    );
    status.queued();
    await vi.advanceTimersByTimeAsync(0);
    refuse = false;
    status.thinking();
    await vi.advanceTimersByTimeAsync(700);
    expect(errors).toEqual(["no 👀"]);
  });

  it("tools show by kind: coding (code_execution too), web (x_search too), anything else", () => {
    expect(["exec", "read", "apply_patch", "code_execution", "web_search", "x_search", "browser", "memory_search", "cron"].map(toolStatus)).toEqual([
      "coding",
      "coding",
      "coding",
      "coding",
      "web",
      "web",
      "web",
      "tool",
      "tool",
    ]);
  });
});
