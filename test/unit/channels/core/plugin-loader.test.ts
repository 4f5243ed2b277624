import { describe, expect, it } from "vitest";
import { createChannelPluginLoader } from "../../../../src/channels/plugin-loader.js";
import type { ChannelPlugin } from "../../../../src/channels/types.js";

const plugin = { id: "telegram" } as unknown as ChannelPlugin;
const unused = () => Promise.reject(new Error("not this channel"));

describe("channel plugin loader", () => {
  it("imports a channel's plugin once and shares it", async () => {
    let imports = 0;
    const load = createChannelPluginLoader({ telegram: async () => (imports++, { default: plugin }), discord: unused, slack: unused });
    const [first, second] = await Promise.all([load("telegram"), load("telegram")]);
    expect(await load("telegram")).toBe(plugin);
    expect(first).toBe(second);
    expect(imports).toBe(1);
  });

  it("forgets a failed import, so the next load imports again and succeeds", async () => {
    let imports = 0;
    const load = createChannelPluginLoader({
      telegram: async () => {
        imports++;
        if (imports === 1) throw new Error("EMFILE: too many open files");
        return { default: plugin };
      },
      discord: unused,
      slack: unused,
    });
    await expect(load("telegram")).rejects.toThrow("EMFILE");
    expect(await load("telegram")).toBe(plugin);
    expect(imports).toBe(2);
  });
});
