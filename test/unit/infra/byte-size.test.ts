import { describe, expect, it } from "vitest";
import { formatByteSize, parseByteSize } from "../../../src/infra/byte-size.js";

describe("byte sizes", () => {
  it("reads a number with b, kb, mb, gb or tb as powers of 1024, in any case, and a plain number as bytes", () => {
    expect(parseByteSize("500mb")).toBe(500 * 1024 ** 2);
    expect(parseByteSize("1.5 GB")).toBe(1.5 * 1024 ** 3);
    expect(parseByteSize("4096")).toBe(4096);
    expect(parseByteSize(" 10kb ")).toBe(10_240);
    expect(parseByteSize(123.9)).toBe(123);
  });

  it("refuses what is not a size", () => {
    for (const text of ["lots", "10 gigabytes", "-5mb", "5pb", ""]) expect(parseByteSize(text)).toBeUndefined();
    expect(parseByteSize(-1)).toBeUndefined();
  });

  it("shows sizes back in the largest unit that fits", () => {
    expect(formatByteSize(512)).toBe("512 B");
    expect(formatByteSize(1_572_864)).toBe("1.5 MiB");
    expect(formatByteSize(10 * 1024 ** 3)).toBe("10 GiB");
  });
});
