import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { RawOpenClawConfig } from "../../../src/config/index.js";
import { MemoryService } from "../../../src/memory/index.js";

export interface MemoryFixture {
  root: string;
  workspace: string;
  stateDir: string;
  warnings: { obj: unknown; msg: string }[];
  service: MemoryService;
  write(rel: string, text: string | Buffer): string;
  reopen(search?: Record<string, unknown>, env?: NodeJS.ProcessEnv): Promise<MemoryService>;
  close(): Promise<void>;
}

/** A temp workspace and state dir with a MemoryService over them (no watcher unless asked). */
export function memoryFixture(search: Record<string, unknown> = { provider: "none" }, options: { watch?: boolean; env?: NodeJS.ProcessEnv } = {}): MemoryFixture {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "memory-test-"));
  const workspace = path.join(root, "workspace");
  const stateDir = path.join(root, "state");
  fs.mkdirSync(path.join(workspace, "memory"), { recursive: true });
  const warnings: { obj: unknown; msg: string }[] = [];
  const logger = {
    warn: (obj: unknown, msg?: string) => void warnings.push({ obj, msg: msg ?? String(obj) }),
    info: () => {},
    debug: () => {},
  } as never;
  const make = (s: Record<string, unknown>, env: NodeJS.ProcessEnv = options.env ?? {}) => {
    const config = applyDefaults({ memory: { search: s } } as RawOpenClawConfig);
    return new MemoryService({ stateDir, config: () => config, env, logger, workspaceDirOf: () => workspace, watch: options.watch ?? false });
  };
  const fixture: MemoryFixture = {
    root,
    workspace,
    stateDir,
    warnings,
    service: make(search),
    write(rel, text) {
      const file = path.join(workspace, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    },
    async reopen(next = search, env) {
      await fixture.service.close();
      fixture.service = make(next, env);
      return fixture.service;
    },
    async close() {
      await fixture.service.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** `memory.search` pointing at the fake model server's `/v1/embeddings`. */
export function fakeEmbeddingSearch(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${url}/v1`, apiKey: "sk-fake-embed" }, ...extra };
}
