import { describe, expect, it } from "vitest";
import { fileType } from "../../../src/agents/media/file-type.js";

const octet = { mimeType: "application/octet-stream" };
const bytes = (text: string) => Buffer.from(text, "latin1");

describe("fileType", () => {
  it("a PDF by its signature, whatever it was declared as or named", () => {
    expect(fileType(bytes("%PDF-1.7\n%âãÏÓ"), octet, "scan")).toEqual({ mimeType: "application/pdf" });
    expect(fileType(bytes("%PDF-1.4\n"), { mimeType: "text/plain" }, "notes.txt")).toEqual({ mimeType: "application/pdf" });
  });

  it("a specific declared type stands, with its charset", () => {
    expect(fileType(bytes("a,b"), { mimeType: "text/csv", charset: "iso-8859-7" }, "x.txt")).toEqual({ mimeType: "text/csv", charset: "iso-8859-7" });
    expect(fileType(bytes("PK\x03\x04"), { mimeType: "application/zip" }, "a.zip")).toEqual({ mimeType: "application/zip" });
  });

  it("a generic or missing type: the name's extension, else text/plain for bytes that read as text, else as declared", () => {
    expect(fileType(bytes("{}"), octet, "data.JSON")).toEqual({ mimeType: "application/json" });
    expect(fileType(bytes("# Title\nsome notes\n"), { mimeType: "" }, "README")).toEqual({ mimeType: "text/plain" });
    expect(fileType(Buffer.from("naïve café ✓", "utf8"), octet, undefined)).toEqual({ mimeType: "text/plain" });
    expect(fileType(bytes("caf\xe9 \x93q\x94"), octet, undefined)).toEqual({ mimeType: "text/plain" });
    expect(fileType(Buffer.from("\ufeffhi", "utf16le"), octet, undefined)).toEqual({ mimeType: "text/plain" });
    expect(fileType(bytes("PK\x03\x04\x14\x00\x00\x00"), octet, "archive")).toEqual(octet);
    expect(fileType(Buffer.from([0x01, 0x02, 0x03, 0x04, 0x05, 0x41]), octet, undefined)).toEqual(octet);
  });

  it("a UTF-8 character cut by the end of the sample still reads as text", () => {
    const sample = Buffer.concat([Buffer.from("a".repeat(4094)), Buffer.from("é", "utf8"), Buffer.from("b")]).subarray(0, 4095);
    expect(fileType(sample, octet, undefined)).toEqual({ mimeType: "text/plain" });
  });
});
