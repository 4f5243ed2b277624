import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageLimitsFrom, loadImages, type ImageLimits } from "../../../src/gateway/http/openai/image-loader.js";
import { startLoopbackUrlServer, TO_LOOPBACK } from "../../helpers/loopback-url-server.js";
import type { ImageSource } from "../../../src/gateway/http/openai/image-sources.js";

/**
 * Fetching image URLs against a real HTTP server on loopback. The address check is the real one
 * where a test says so; elsewhere a lookup that sends the test's host names to the server stands
 * in for DNS (the check itself refuses loopback, as the last test shows).
 */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(60, 1)]);
let server: Awaited<ReturnType<typeof startLoopbackUrlServer>>;
let port: number;

beforeAll(async () => {
  server = await startLoopbackUrlServer((req, res) => {
    if (req.url === "/a.png") return void res.writeHead(200, { "content-type": "image/png; charset=binary" }).end(PNG);
    if (req.url?.startsWith("/hop/")) {
      const left = Number(req.url.slice(5));
      return void res.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : "/a.png" }).end();
    }
    if (req.url === "/page") return void res.writeHead(200, { "content-type": "text/html" }).end("<p>no</p>");
    if (req.url === "/slow") return void res.writeHead(200, { "content-type": "image/png" }).write(PNG.subarray(0, 4));
    res.writeHead(404).end();
  });
  port = server.port;
});
afterAll(() => server.close());

const source = (path: string, host = "images.test"): ImageSource => ({ kind: "url", url: new URL(`http://${host}:${port}${path}`), param: "input[0].content[0].image_url" });
const limits = (overrides: Partial<ImageLimits> = {}): ImageLimits => ({ ...imageLimitsFrom({ allowUrl: true }, "chatCompletions"), ...overrides });

describe("image URLs", () => {
  it("fetches an image, its type from the answer's content-type", async () => {
    expect(await loadImages([source("/a.png")], limits(), TO_LOOPBACK)).toEqual([{ mimeType: "image/png", bytes: PNG }]);
  });

  it("follows at most maxRedirects redirects", async () => {
    expect(await loadImages([source("/hop/2")], limits({ maxRedirects: 3 }), TO_LOOPBACK)).toEqual([{ mimeType: "image/png", bytes: PNG }]);
    await expect(loadImages([source("/hop/2")], limits({ maxRedirects: 2 }), TO_LOOPBACK)).rejects.toThrow(
      /redirected more than 2 times \(gateway\.http\.endpoints\.chatCompletions\.images\.maxRedirects\)/,
    );
  });

  it("refuses what is not an allowed image, too large, missing or too slow", async () => {
    await expect(loadImages([source("/page")], limits(), TO_LOOPBACK)).rejects.toThrow(/image type 'text\/html' is not accepted/);
    await expect(loadImages([source("/a.png")], limits({ maxBytes: 10 }), TO_LOOPBACK)).rejects.toThrow(/the image at images\.test:\d+ is over 10 B/);
    await expect(loadImages([source("/gone.png")], limits(), TO_LOOPBACK)).rejects.toThrow(/answered HTTP 404/);
    await expect(loadImages([source("/slow")], limits({ timeoutMs: 200 }), TO_LOOPBACK)).rejects.toThrow(
      /no complete answer within 200 ms \(gateway\.http\.endpoints\.chatCompletions\.images\.timeoutMs\)/,
    );
  });

  it("checks every hop against the allowlist", async () => {
    const allowlisted = limits({ urlAllowlist: ["*.example.test"] });
    expect(await loadImages([source("/a.png", "cdn.example.test")], allowlisted, TO_LOOPBACK)).toHaveLength(1);
    await expect(loadImages([source("/a.png", "images.test")], allowlisted, TO_LOOPBACK)).rejects.toThrow(
      /images\.test is not in gateway\.http\.endpoints\.chatCompletions\.images\.urlAllowlist/,
    );
  });

  it("never reaches loopback or private addresses through the real address check", async () => {
    await expect(loadImages([source("/a.png", "127.0.0.1")], limits())).rejects.toThrow(/is not fetched: 127\.0\.0\.1 is a private, loopback/);
    await expect(loadImages([source("/a.png", "[::1]")], limits())).rejects.toThrow(/is not fetched: ::1 is a private, loopback/);
    await expect(loadImages([source("/a.png", "localhost")], limits())).rejects.toThrow(
      /could not be fetched: localhost resolves to .*, a private, loopback or link-local address/,
    );
  });
});
