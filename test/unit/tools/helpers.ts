import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import type { ToolContext, ToolResult, ToolServices } from "../../../src/agents/types.js";

const created: string[] = [];

// A child a test started may still write into its directory while it is removed (a fake docker's
// late call appends to its log): removal is retried until the directory stays empty.
afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

/** A fresh directory (realpath'd, as the ToolContext contract wants), removed after the test. */
export function makeTempDir(prefix = "openclaw-tools-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** A workspace plus a sibling "outside" directory, both temporary. */
export function makeWorkspace(): { workspace: string; outside: string } {
  const base = makeTempDir();
  const workspace = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  return { workspace, outside };
}

export function makeContext(workspaceDir: string, services: ToolServices = {}): ToolContext {
  return { agentId: "main", workspaceDir, sessionKey: "agent:main:main", senderIsOwner: true, services };
}

export const neverAborted = new AbortController().signal;

export function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("\n");
}

/** The parsed JSON body of a toolError result. */
export function errorOf(result: ToolResult): { error: string; message: string; suggestion?: string } {
  if (!result.isError) throw new Error(`expected an error result, got: ${textOf(result)}`);
  return JSON.parse(textOf(result)) as { error: string; message: string; suggestion?: string };
}

/** Polls `check` until it holds; fails after `timeoutMs` instead of sleeping blindly. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Whether a pid is gone. A zombie counts as gone: in containers PID 1 may never reap orphans,
 * and a zombie runs no code.
 */
export function isProcessGone(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}
