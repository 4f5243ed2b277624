import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { askAndWait } from "../helpers/chat-session.js";
import { useFakeModelGateway } from "../helpers/fake-servers.js";
import { chatRequests, lastMessageOf, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";
import { visionProvider } from "../helpers/vision-models.js";
import { ONE_PIXEL_PNG } from "../helpers/tiny-png.js";

const PNG = ONE_PIXEL_PNG;

const fakes = useFakeModelGateway({
  operator: true,
  configure: (config: any) => {
    config.models.providers.fake = visionProvider(config.models.providers.fake.baseUrl.replace(/\/v1$/, ""));
    config.agents.defaults.model = { primary: "fake/vision" };
    config.agents.entries = { main: { default: true }, blind: { model: "fake/text-only" } };
  },
});

describe("view_image", () => {
  it("a model that takes images looks at a workspace image: the next model call carries it as image input", async () => {
    const workspace = path.join(fakes.stateDir, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, "chart.png"), PNG);
    fakes.model.setResponder((req) => {
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text === "what does chart.png show") return { toolCalls: [{ name: "view_image", arguments: { path: "chart.png" } }] };
      return { text: "a single pixel" };
    });
    const reply = await askAndWait(fakes.sock, "view-image", "what does chart.png show", 10_000);
    expect(reply.payload.message.content[0].text).toBe("a single pixel");
    // OpenAI's chat wire takes no image in a tool message: the image follows it in a user message.
    const after = chatRequests(fakes.model.requests).find((r) => lastMessageOf(r).text.startsWith("Images returned by the tools above"))!;
    expect(toolNamesOf(after)).toContain("view_image");
    const last = after.body.messages.at(-1);
    expect(last.content[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } });
    expect(after.body.messages.at(-2)).toMatchObject({ role: "tool", content: expect.stringContaining("Image 1: chart.png (image/png") });
  });

  it("is not offered to a model that cannot see images", async () => {
    fakes.model.setResponder(() => ({ text: "no eyes" }));
    await askAndWait(fakes.sock, "agent:blind:main", "hello", 10_000);
    const request = chatRequests(fakes.model.requests).find((r) => lastUserTextOf(r) === "hello")!;
    expect(toolNamesOf(request)).not.toContain("view_image");
    expect(toolNamesOf(request)).toContain("read");
  });
});
