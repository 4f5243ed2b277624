import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { normalizeToolSchema } from "../../../src/models/index.js";

describe("normalizeToolSchema", () => {
  it("drops typebox symbols and meta keywords, keeping a plain object schema", () => {
    const schema = Type.Object({ path: Type.String({ description: "File path" }), limit: Type.Optional(Type.Integer()) }, { $id: "Read" });
    const out = normalizeToolSchema({ ...schema, $schema: "https://json-schema.org/draft/2020-12/schema" }, "anthropic-messages", "anthropic");
    expect(out).toEqual({
      type: "object",
      properties: { path: { type: "string", description: "File path" }, limit: { type: "integer" } },
      required: ["path"],
    });
    expect(Object.getOwnPropertySymbols(out)).toEqual([]);
    expect(Object.getOwnPropertySymbols(out.properties as object)).toEqual([]);
  });

  it("flattens a union of string literals into an enum, keeping its description", () => {
    const schema = Type.Object({
      mode: Type.Union([Type.Literal("read"), Type.Literal("write")], { description: "Access mode" }),
    });
    for (const [api, provider] of [
      ["anthropic-messages", "anthropic"],
      ["openai-completions", "openai"],
    ] as const) {
      expect(normalizeToolSchema(schema, api, provider).properties).toEqual({
        mode: { description: "Access mode", type: "string", enum: ["read", "write"] },
      });
    }
  });

  it("leaves unions that are not all string literals alone", () => {
    const schema = { type: "object", properties: { v: { anyOf: [{ type: "string" }, { type: "number" }] } } };
    expect(normalizeToolSchema(schema, "openai-completions", "openai").properties).toEqual({ v: { anyOf: [{ type: "string" }, { type: "number" }] } });
  });

  it("gives every object schema a type and properties, at any depth", () => {
    const schema = { properties: { opts: { type: "object" }, list: { type: "array", items: { properties: { a: { type: "string" } } } } } };
    expect(normalizeToolSchema(schema, "openai-completions", "openai")).toEqual({
      type: "object",
      properties: {
        opts: { type: "object", properties: {} },
        list: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
      },
    });
    expect(normalizeToolSchema(undefined, "anthropic-messages", "anthropic")).toEqual({ type: "object", properties: {} });
    expect(normalizeToolSchema({ type: "string", description: "x" }, "anthropic-messages", "anthropic")).toEqual({
      type: "object",
      properties: {},
      description: "x",
    });
  });

  it("strips what OpenAI-compatible providers reject, but keeps it for Anthropic", () => {
    const schema = {
      type: "object",
      properties: {
        when: { type: "string", format: "date-time" },
        count: { type: "integer", format: "int32", default: 1, examples: [1, 2] },
        tags: { type: "object", patternProperties: { "^x-": { type: "string" } } },
        kind: { const: "fixed" },
      },
    };
    const openai = normalizeToolSchema(schema, "openai-completions", "openai");
    expect(openai.properties).toEqual({
      when: { type: "string", format: "date-time" },
      count: { type: "integer", default: 1 },
      tags: { type: "object", properties: {} },
      kind: { enum: ["fixed"] },
    });
    const anthropic = normalizeToolSchema(schema, "anthropic-messages", "anthropic");
    expect((anthropic.properties as Record<string, unknown>).count).toEqual({ type: "integer", format: "int32", default: 1, examples: [1, 2] });
    expect((anthropic.properties as Record<string, unknown>).kind).toEqual({ const: "fixed" });
  });

  it("applies the strictest rules to Gemini-style providers", () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      properties: { note: { type: ["string", "null"], default: "" }, meta: { type: "object", additionalProperties: { type: "string" } } },
    };
    expect(normalizeToolSchema(schema, "openai-completions", "google-gemini")).toEqual({
      type: "object",
      properties: { note: { type: "string" }, meta: { type: "object", properties: {} } },
    });
  });

  it("never treats property names as keywords", () => {
    const schema = { type: "object", properties: { format: { type: "string" }, default: { type: "boolean" }, $id: { type: "string" } } };
    expect(Object.keys(normalizeToolSchema(schema, "openai-completions", "google").properties as object)).toEqual(["format", "default", "$id"]);
  });

  it("is idempotent", () => {
    const schema = Type.Object({ a: Type.Union([Type.Literal("x"), Type.Literal("y")]), b: Type.Object({}) });
    const once = normalizeToolSchema(schema, "openai-completions", "openai");
    expect(normalizeToolSchema(once, "openai-completions", "openai")).toEqual(once);
  });
});
