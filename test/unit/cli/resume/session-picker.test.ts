import { describe, expect, it } from "vitest";
import { PICKER_TITLE, PickerState } from "../../../../src/cli/resume/session-picker.js";
import { resumeChoices } from "../../../../src/cli/resume/session-match.js";

const choices = resumeChoices(
  ["alpha", "beta", "gamma", "delta"].map((name, i) => ({ key: `agent:main:${name}`, displayName: i === 3 ? "evil \x1b[2J name" : undefined })),
  0,
);

describe("the resume picker's state", () => {
  it("moves within the list, opens the highlighted session, and cancels", () => {
    const state = new PickerState(choices);
    expect(state.press({ name: "up" })).toBeUndefined();
    expect(state.selected).toBe(0);
    for (let i = 0; i < 6; i++) state.press({ name: "down" });
    expect(state.selected).toBe(3);
    expect(state.press({ name: "enter" })).toEqual({ key: "agent:main:delta" });
    expect(new PickerState(choices).press({ name: "ctrl-c" })).toEqual({ cancel: true });
    expect(new PickerState([]).press({ name: "enter" })).toBeUndefined();
  });

  it("typing filters and resets the highlight; the first Esc clears the filter, the next cancels", () => {
    const state = new PickerState(choices);
    state.press({ name: "down" });
    state.press({ name: "text", text: "gam" });
    expect(state.visible.map((c) => c.key)).toEqual(["agent:main:gamma"]);
    expect(state.selected).toBe(0);
    state.press({ name: "backspace" });
    expect(state.filter).toBe("ga");
    expect(state.press({ name: "escape" })).toBeUndefined();
    expect(state.filter).toBe("");
    expect(state.visible).toHaveLength(4);
    expect(state.press({ name: "escape" })).toEqual({ cancel: true });
  });

  it("renders title, help, filter and the list cut to the terminal, untrusted text inert, the highlight kept in view", () => {
    const state = new PickerState(choices);
    for (let i = 0; i < 3; i++) state.press({ name: "down" });
    const rows = state.render(40, 6, true);
    expect(rows[0]).toBe(PICKER_TITLE);
    expect(rows[2]).toBe("filter> ");
    // Two list rows fit: the window follows the highlighted (last) row.
    expect(rows.slice(4)).toEqual(["  gamma", "> evil ^[[2J name (delta)"]);
    expect(rows.every((row) => row.length <= 40 && !row.includes("\x1b"))).toBe(true);
    state.press({ name: "text", text: "zzz" });
    expect(state.render(80, 10, true).at(-1)).toBe('  no session matches "zzz"');
  });
});
