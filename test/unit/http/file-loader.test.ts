import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileLimitsFrom, type FileLimits, loadFiles } from "../../../src/gateway/http/openai/file-loader.js";
import type { FileSource } from "../../../src/gateway/http/openai/file-parts.js";
import { filesPrompt } from "../../../src/agents/media/file-prompt.js";
import { decodeFileText } from "../../../src/agents/media/file-text.js";
import { startLoopbackUrlServer, TO_LOOPBACK } from "../../helpers/loopback-url-server.js";

/**
 * A request's files read as text: inline and by URL against a real HTTP server on loopback (a
 * lookup that sends the test's host names to it stands in for DNS; the real address check is
 * covered by openai-images.test.ts), in the charset declared or detected, under the endpoint's
 * `files` limits.
 */
const WINDOWS_1252 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80]);
let server: Awaited<ReturnType<typeof startLoopbackUrlServer>>;
let port: number;

beforeAll(async () => {
  server = await startLoopbackUrlServer((req, res) => {
    if (req.url === "/notes/old%20notes.txt") return void res.writeHead(200, { "content-type": "text/plain; charset=windows-1252" }).end(WINDOWS_1252);
    if (req.url === "/data.csv") return void res.writeHead(200, { "content-type": "text/csv" }).end("a,b\n1,2\n");
    if (req.url === "/moved") return void res.writeHead(301, { location: "/data.csv" }).end();
    if (req.url === "/report.doc") return void res.writeHead(200, { "content-type": "application/msword" }).end("\xd0\xcf");
    res.writeHead(404).end();
  });
  port = server.port;
});
afterAll(() => server.close());

const param = "input[0].content[1].file_url";
const url = (path: string): FileSource => ({ kind: "url", url: new URL(`http://files.test:${port}${path}`), param });
const inline = (bytes: Buffer, mimeType = "text/plain", charset?: string): FileSource => ({
  kind: "data",
  mimeType,
  ...(charset ? { charset } : {}),
  base64: bytes.toString("base64"),
  param,
});
const limits = (overrides: Partial<FileLimits> = {}): FileLimits => ({ ...fileLimitsFrom(undefined, "responses"), ...overrides });

describe("file URLs", () => {
  it("fetches a file, its type and charset from the answer, its name from the URL", async () => {
    expect(await loadFiles([url("/notes/old%20notes.txt")], limits(), TO_LOOPBACK)).toEqual([{ name: "old notes.txt", mimeType: "text/plain", text: "café “q” €" }]);
    expect(await loadFiles([url("/moved")], limits(), TO_LOOPBACK)).toEqual([{ name: "moved", mimeType: "text/csv", text: "a,b\n1,2\n" }]);
  });

  it("refuses types not read or not allowed, files over maxBytes, and URLs when allowUrl is off", async () => {
    await expect(loadFiles([url("/report.doc")], limits(), TO_LOOPBACK)).rejects.toThrow(/files of type 'application\/msword' are not read \(text\/plain, .*application\/pdf\)/);
    await expect(loadFiles([url("/data.csv")], limits({ allowedMimes: ["text/plain"] }), TO_LOOPBACK)).rejects.toThrow(
      /files of type 'text\/csv' are not accepted \(text\/plain; gateway\.http\.endpoints\.responses\.files\.allowedMimes\)/,
    );
    await expect(loadFiles([url("/data.csv")], limits({ maxBytes: 4 }), TO_LOOPBACK)).rejects.toThrow(
      /the file at files\.test:\d+ is over 4 B \(gateway\.http\.endpoints\.responses\.files\.maxBytes\)/,
    );
    await expect(loadFiles([url("/data.csv")], fileLimitsFrom(undefined, "chatCompletions"), TO_LOOPBACK)).rejects.toThrow(
      /file URLs are not fetched here; send the file inline \(file_data\), or set gateway\.http\.endpoints\.chatCompletions\.files\.allowUrl/,
    );
    await expect(loadFiles([url("/gone.txt")], limits(), TO_LOOPBACK)).rejects.toThrow(/answered HTTP 404/);
  });
});

describe("a file sent with a generic type", () => {
  it("is typed by its name's extension, else as text when it reads as text; anything else is still refused", async () => {
    const octet = "application/octet-stream";
    expect(await loadFiles([{ ...inline(Buffer.from('{"a":1}'), octet), fileName: "data.json" }], limits())).toEqual([
      { name: "data.json", mimeType: "application/json", text: '{"a":1}' },
    ]);
    expect(await loadFiles([{ ...inline(WINDOWS_1252, ""), fileName: "README" }], limits())).toEqual([{ name: "README", mimeType: "text/plain", text: "café “q” €" }]);
    await expect(loadFiles([{ ...inline(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2]), octet), fileName: "archive" }], limits())).rejects.toThrow(
      /files of type 'application\/octet-stream' are not read/,
    );
  });
});

describe("inline files", () => {
  it("are read under the same limits", async () => {
    expect(await loadFiles([{ ...inline(Buffer.from("hi")), fileName: "a.txt" }], limits())).toEqual([{ name: "a.txt", mimeType: "text/plain", text: "hi" }]);
    await expect(loadFiles([inline(Buffer.from("0123456789"))], limits({ maxBytes: 5 }))).rejects.toThrow(
      /the file is 10 B, over 5 B \(gateway\.http\.endpoints\.responses\.files\.maxBytes\)/,
    );
    await expect(loadFiles([inline(Buffer.from("{}"), "application/json")], limits({ allowedMimes: ["text/plain"] }))).rejects.toThrow(/'application\/json' are not accepted/);
  });

  it("show at most maxChars of each file's text in the prompt, saying where they were cut", () => {
    const prompt = filesPrompt([{ name: "long.txt", mimeType: "text/plain", text: "abcdefghijklmnopqrstuvwxyz" }], 10);
    expect(prompt).toContain('<<<EXTERNAL_UNTRUSTED_CONTENT id="file-1">>>\nabcdefghij\n<<<END_EXTERNAL_UNTRUSTED_CONTENT id="file-1">>>\n(cut at 10 of 26 characters)');
  });
});

describe("decodeFileText", () => {
  it("takes a declared charset as declared, and refuses bytes not valid in it", () => {
    expect(decodeFileText(WINDOWS_1252, "windows-1252")).toBe("café “q” €");
    expect(decodeFileText(Buffer.from([0xe9]), "iso-8859-1")).toBe("é");
    expect(decodeFileText(Buffer.from("grüße", "utf16le"), "utf-16le")).toBe("grüße");
    expect(() => decodeFileText(Buffer.from([0xff]), "utf-8")).toThrow(/not valid utf-8 text/);
  });

  it("without one: a byte-order mark, then UTF-16 by its zero bytes, then UTF-8, else Windows-1252", () => {
    expect(decodeFileText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("ünï")]), undefined)).toBe("ünï");
    expect(decodeFileText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("AB", "utf16le").swap16()]), undefined)).toBe("AB");
    expect(decodeFileText(Buffer.from("plain words", "utf16le"), undefined)).toBe("plain words");
    expect(decodeFileText(Buffer.from("plain words", "utf16le").swap16(), undefined)).toBe("plain words");
    expect(decodeFileText(Buffer.from("naïve ✓"), undefined)).toBe("naïve ✓");
    expect(decodeFileText(WINDOWS_1252, undefined)).toBe("café “q” €");
  });
});
