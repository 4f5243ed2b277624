import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as workspace from "../../../src/agents/context/workspace.js";
import { ensureWorkspaceOnce } from "../../../src/agents/turn-context-cache.js";
import { makeTempDir } from "./temp-dir.js";

afterEach(() => vi.restoreAllMocks());

describe("ensureWorkspaceOnce", () => {
  it("shares one creation between callers that overlap (a warm-up and the first turn)", async () => {
    const create = vi.spyOn(workspace, "ensureWorkspace");
    const dir = path.join(makeTempDir(), "ws");
    await Promise.all([ensureWorkspaceOnce(dir), ensureWorkspaceOnce(dir)]);
    await ensureWorkspaceOnce(dir);
    expect(create).toHaveBeenCalledTimes(1);
    expect(fs.existsSync(path.join(dir, "AGENTS.md"))).toBe(true);
  });

  it("tries again after a failed creation", async () => {
    const create = vi.spyOn(workspace, "ensureWorkspace").mockRejectedValueOnce(new Error("EMFILE"));
    const dir = path.join(makeTempDir(), "ws");
    await expect(ensureWorkspaceOnce(dir)).rejects.toThrow("EMFILE");
    await ensureWorkspaceOnce(dir);
    expect(create).toHaveBeenCalledTimes(2);
    expect(fs.existsSync(dir)).toBe(true);
  });
});
