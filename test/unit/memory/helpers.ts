import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../../fakes/model-server.js";
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

/** The fake model server (for `/v1/embeddings`) and the memory fixtures of a test file. */
export interface MemoryTest {
  readonly server: FakeModelServer;
  /** `memoryFixture`, closed (workspace removed) after the test that opened it. */
  open(...args: Parameters<typeof memoryFixture>): MemoryFixture;
}

/**
 * Registers the file's vitest hooks: the fake model server starts before the first test and
 * closes after the last; after each test it is reset, then the fixtures the test opened close.
 */
export function useMemoryTest(): MemoryTest {
  let server: FakeModelServer | undefined;
  const opened: MemoryFixture[] = [];

  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    server?.reset();
    for (const fixture of opened.splice(0)) await fixture.close();
  });

  return {
    get server() {
      if (!server) throw new Error("the fake model server is not started yet: use it inside a test or a hook");
      return server;
    },
    open(...args) {
      const fixture = memoryFixture(...args);
      opened.push(fixture);
      return fixture;
    },
  };
}
