import { createCanvas } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { imageSize } from "../../../../src/agents/media/image-dimensions.js";

function encoded(width: number, height: number, format: "png" | "jpeg" | "webp"): Buffer {
  const canvas = createCanvas(width, height);
  canvas.getContext("2d").fillRect(0, 0, width, height);
  return format === "png" ? canvas.encodeSync("png") : format === "jpeg" ? canvas.encodeSync("jpeg", 80) : canvas.encodeSync("webp", 80);
}

describe("imageSize", () => {
  it("reads PNG, JPEG and WebP headers as the encoder wrote them", () => {
    expect(imageSize(encoded(321, 123, "png"))).toEqual({ width: 321, height: 123 });
    expect(imageSize(encoded(640, 1136, "jpeg"))).toEqual({ width: 640, height: 1136 });
    expect(imageSize(encoded(77, 55, "webp"))).toEqual({ width: 77, height: 55 });
  });

  it("reads a GIF's logical screen size", () => {
    const gif = Buffer.concat([Buffer.from("GIF89a", "ascii"), Buffer.from([0x2c, 0x01, 0x96, 0x00]), Buffer.alloc(8)]);
    expect(imageSize(gif)).toEqual({ width: 300, height: 150 });
  });

  it("reads a JPEG whose frame header follows other segments", () => {
    const jpeg = encoded(90, 45, "jpeg");
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x07]), Buffer.from("hello")]);
    expect(imageSize(Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]))).toEqual({ width: 90, height: 45 });
  });

  it("is undefined for other bytes, truncated headers and zero sizes", () => {
    expect(imageSize(Buffer.from("not an image at all"))).toBeUndefined();
    expect(imageSize(encoded(10, 10, "png").subarray(0, 20))).toBeUndefined();
    expect(imageSize(encoded(10, 10, "jpeg").subarray(0, 40))).toBeUndefined();
    expect(imageSize(Buffer.concat([Buffer.from("GIF87a", "ascii"), Buffer.alloc(8)]))).toBeUndefined();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]))).toBeUndefined();
  });
});
