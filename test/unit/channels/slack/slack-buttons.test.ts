import { describe, expect, it } from "vitest";
import { buttonBlocks } from "../../../../extensions/slack/block-actions.js";

describe("Slack buttons", () => {
  it("the text as a section, then one actions block per row; each button's value is its data, success green (primary), danger red", () => {
    expect(
      buttonBlocks(
        [
          [
            { label: "Allow once", data: "/approve a allow-once", style: "success" },
            { label: "Allow always", data: "/approve a allow-always", style: "primary" },
            { label: "Deny", data: "/approve a deny", style: "danger" },
          ],
        ],
        "*Exec approval needed*",
      ),
    ).toEqual([
      { type: "section", text: { type: "mrkdwn", text: "*Exec approval needed*" } },
      {
        type: "actions",
        block_id: "openclaw_buttons_0",
        elements: [
          { type: "button", action_id: "openclaw_button_0_0", text: { type: "plain_text", text: "Allow once" }, value: "/approve a allow-once", style: "primary" },
          { type: "button", action_id: "openclaw_button_0_1", text: { type: "plain_text", text: "Allow always" }, value: "/approve a allow-always" },
          { type: "button", action_id: "openclaw_button_0_2", text: { type: "plain_text", text: "Deny" }, value: "/approve a deny", style: "danger" },
        ],
      },
    ]);
  });

  it("keeps to Slack's limits: a section of at most 3,000 characters, 75-character labels; refuses data over 2,000 characters", () => {
    const [section, actions] = buttonBlocks([[{ label: "x".repeat(100), data: "d" }]], "t".repeat(5000)) as unknown as [
      { text: { text: string } },
      { elements: { text: { text: string } }[] },
    ];
    expect(section.text.text).toHaveLength(3000);
    expect(actions.elements[0]!.text.text).toHaveLength(75);
    expect(() => buttonBlocks([[{ label: "long", data: "d".repeat(2001) }]], "t")).toThrow(/at most 2000 characters/);
  });
});
