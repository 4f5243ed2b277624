import { describe, expect, it } from "vitest";
import { stripSchemaFields } from "../../../src/agents/tools/strip-schema-fields.js";

describe("stripSchemaFields", () => {
  it("removes schema and $schema keys at any depth and keeps the data", () => {
    const input = {
      result: "data",
      schema: { type: "object", properties: { a: { type: "string" } } },
      $schema: "http://json-schema.org/draft-07/schema#",
      nested: { keep: 1, schema: {}, list: [{ $schema: "x", value: 2 }, "text", null] },
    };
    expect(stripSchemaFields(input)).toEqual({ result: "data", nested: { keep: 1, list: [{ value: 2 }, "text", null] } });
    // The input is not modified.
    expect(input.schema).toBeDefined();
    expect(input.nested.list[0]).toEqual({ $schema: "x", value: 2 });
  });

  it("passes primitives and non-plain objects through, and survives cycles", () => {
    expect(stripSchemaFields("text")).toBe("text");
    expect(stripSchemaFields(null)).toBeNull();
    const date = new Date(0);
    expect(stripSchemaFields({ when: date }).when).toBe(date);
    const cyclic: Record<string, unknown> = { name: "loop", schema: 1 };
    cyclic.self = cyclic;
    const copy = stripSchemaFields(cyclic);
    expect(copy.schema).toBeUndefined();
    expect(copy.self).toBe(copy);
  });
});
