import { describe, expect, it } from "vitest";
import { configUiHints, lookupConfigSchema, OpenClawConfigSchema } from "../../../src/config/index.js";

const lookup = (path: string) => lookupConfigSchema(OpenClawConfigSchema, configUiHints(OpenClawConfigSchema), path);

describe("lookupConfigSchema", () => {
  it("answers the top level with its sections one level down", () => {
    const root = lookup(".")!;
    expect(root.path).toBe(".");
    expect(root.children.map((c) => c.key)).toEqual(expect.arrayContaining(["gateway", "agents", "channels", "models", "tools"]));
    expect(root.children.find((c) => c.key === "gateway")).toMatchObject({ hasChildren: true, reloadKind: "restart" });
    expect(root.children.find((c) => c.key === "agents")).toMatchObject({ hasChildren: true, reloadKind: "hot" });
  });

  it("walks through unions, maps and lists: a model ref is a string or an object; a map key or list index reaches the entry's keys", () => {
    const model = lookup("agents.defaults.model")!;
    expect(model.schema.anyOf).toBeTruthy();
    expect(model.children.map((c) => c.key)).toEqual(expect.arrayContaining(["primary", "fallbacks"]));
    const provider = lookup("models.providers.openai.apiKey")!;
    expect(provider).toMatchObject({ path: "models.providers.openai.apiKey", hint: { sensitive: true } });
    expect(lookup("models.providers")!.children).toEqual([expect.objectContaining({ key: "*", hasChildren: true })]);
    expect(lookup("agents.list[0].id")).toMatchObject({ path: "agents.list.0.id", schema: { type: "string" } });
  });

  it("says whether a change applies live or needs a restart, as a config reload decides it", () => {
    expect(lookup("gateway.port")!.reloadKind).toBe("restart");
    expect(lookup("gateway.http")!.reloadKind).toBe("hot");
    expect(lookup("logging.file")!.reloadKind).toBe("restart");
    expect(lookup("logging.level")).toMatchObject({ reloadKind: "hot", schema: { enum: expect.arrayContaining(["info", "debug"]) }, children: [] });
  });

  it("is null for a key the schema does not have, and for an empty path", () => {
    expect(lookup("gateway.nope")).toBeNull();
    expect(lookup("logging.level.deeper")).toBeNull();
    expect(lookup("")).toBeNull();
  });
});
