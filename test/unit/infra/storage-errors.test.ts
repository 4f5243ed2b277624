import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeStorageError } from "../../../src/infra/storage-errors.js";

function errorOf(action: () => void): unknown {
  try {
    action();
  } catch (err) {
    return err;
  }
  throw new Error("expected the action to fail");
}

describe("describeStorageError", () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "storage-errors-"));

  it("a full disk names the cause and the fix", () => {
    const err = errorOf(() => fs.appendFileSync("/dev/full", "x"));
    expect(describeStorageError(err, stateDir)).toBe("could not write to the state dir: the disk is full; free some space and send again");
  });

  it("a file where a directory belongs names the path relative to the state dir", () => {
    fs.writeFileSync(path.join(stateDir, "sessions"), "not a dir");
    const err = errorOf(() => fs.writeFileSync(path.join(stateDir, "sessions", "a.jsonl"), "x"));
    expect(describeStorageError(err, stateDir)).toBe(
      `could not write to the state dir (${path.join("<state>", "sessions", "a.jsonl")}): a path component is a file where a directory belongs; move it aside`,
    );
  });

  it("anything else is not a storage failure", () => {
    expect(describeStorageError(new Error("boom"), stateDir)).toBeUndefined();
    expect(describeStorageError(undefined, stateDir)).toBeUndefined();
  });
});
