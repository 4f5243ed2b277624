import { describe, expect, it } from "vitest";
import { toActionRows } from "../../../../extensions/discord/buttons.js";

describe("Discord buttons", () => {
  it("rows of buttons as action rows: the data as custom id, the style as Discord's, Secondary when none", () => {
    const rows = toActionRows([
      [
        { label: "Allow once", data: "/approve a allow-once", style: "success" },
        { label: "Deny", data: "/approve a deny", style: "danger" },
      ],
      [{ label: "More", data: "more" }],
    ]).map((row) => row.toJSON());
    expect(rows).toEqual([
      {
        type: 1,
        components: [
          { type: 2, custom_id: "/approve a allow-once", label: "Allow once", style: 3 },
          { type: 2, custom_id: "/approve a deny", label: "Deny", style: 4 },
        ],
      },
      { type: 1, components: [{ type: 2, custom_id: "more", label: "More", style: 2 }] },
    ]);
  });

  it("keeps to Discord's limits: five buttons a row, 80-character labels; refuses data over 100 characters", () => {
    const row = Array.from({ length: 7 }, (_, i) => ({ label: `${"x".repeat(90)}${i}`, data: `d${i}` }));
    const [built] = toActionRows([row]).map((r) => r.toJSON());
    expect(built!.components).toHaveLength(5);
    expect((built!.components[0] as { label: string }).label).toHaveLength(80);
    expect(() => toActionRows([[{ label: "long", data: "d".repeat(101) }]])).toThrow(/at most 100 characters/);
  });
});
