import { describe, expect, it } from "vitest";
import { telegramCommandMenu } from "../../../extensions/telegram/command-menu.js";

const native = (count: number) => Array.from({ length: count }, (_, i) => ({ command: `cmd${i}`, description: `command ${i}` }));

describe("Telegram's command menu with customCommands", () => {
  it("keeps every custom entry when the menu is over Telegram's 100, dropping chat commands from the end", () => {
    const custom = Array.from({ length: 5 }, (_, i) => ({ command: `/Extra${i}`, description: ` extra ${i} ` }));
    const { menu, skipped } = telegramCommandMenu(native(98), custom);
    expect(menu).toHaveLength(100);
    expect(menu.slice(-5)).toEqual(custom.map((_, i) => ({ command: `extra${i}`, description: `extra ${i}` })));
    expect(menu.at(94)).toEqual({ command: "cmd94", description: "command 94" });
    expect(skipped).toEqual([]);
  });

  it("drops the args of a chat command from its menu entry", () => {
    expect(telegramCommandMenu([{ command: "queue", description: "mode", args: "<mode>" }], []).menu).toEqual([{ command: "queue", description: "mode" }]);
  });
});
