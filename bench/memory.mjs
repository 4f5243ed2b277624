// Memory: indexing 1,000 notes, memory_search on a 10,000-chunk index, the watcher's latency from
// a write to a searchable note, and the gateway's RSS growth with that index open. In process
// against the unbundled dist/ build, except the RSS figure (a spawned gateway).
import fs from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { freePort, HOST, makeTempDir, REPO_ROOT, spawnGateway } from "./lib/spawn-gateway.mjs";
import { closeClient, connectHello, rpc } from "./lib/ws-client.mjs";
import { BENCH_EMBED_MODEL, BENCH_EMBED_PROVIDER, instantEmbedder, startInstantEmbeddings } from "./lib/instant-embeddings.mjs";
import { MiB, now, percentile, round, sleep } from "./lib/util.mjs";

const DIMS = Number(process.env.BENCH_MEMORY_DIMS ?? 1536);
const NOTES_FOR_INDEXING = 1000;
const NOTE_BYTES = 2048;
const BIG_INDEX_CHUNKS = 10_000;
const SEARCHES = 300;
const TOKEN = "bench-memory";
const VOCABULARY = 20_000;

const dist = (rel) => import(pathToFileURL(path.join(REPO_ROOT, "dist", rel)).href);

/** Deterministic prose from a fixed vocabulary of made-up words, so every run indexes the same text. */
function textGenerator(seed) {
  let state = seed;
  const rand = () => ((state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5), ((state >>> 0) % 1_000_000) / 1_000_000);
  const syllables = ["ka", "lo", "mi", "ren", "tas", "vo", "qui", "del", "ar", "no", "ses", "ul", "bri", "gan", "tor", "pe"];
  const vocabulary = Array.from({ length: VOCABULARY }, () => Array.from({ length: 2 + Math.floor(rand() * 4) }, () => syllables[Math.floor(rand() * syllables.length)]).join(""));
  // Zipf-distributed, P(rank r) ∝ 1/(r + 100): the shape of English content words once stopwords
  // are gone (no word in more than about half the chunks). Sampled by inverting the CDF.
  const span = Math.log((VOCABULARY + 100) / 100);
  const word = () => vocabulary[Math.min(VOCABULARY - 1, Math.floor(100 * Math.exp(rand() * span) - 100))];
  return (bytes) => {
    const lines = [];
    let size = 0;
    while (size < bytes) {
      const line = `- ${Array.from({ length: 8 + Math.floor(rand() * 10) }, word).join(" ")}.`;
      lines.push(line);
      size += line.length + 1;
    }
    return `${lines.join("\n")}\n`;
  };
}

function writeNotes(workspace, count, bytes, seed) {
  const text = textGenerator(seed);
  fs.mkdirSync(path.join(workspace, "memory"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const day = `2026-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
    fs.writeFileSync(path.join(workspace, "memory", `${day}-note-${i}.md`), `# Note ${i}\n\n${text(bytes)}`);
  }
}

function memoryConfig(embeddingsPort) {
  return { memory: { search: { provider: BENCH_EMBED_PROVIDER, model: BENCH_EMBED_MODEL, remote: { baseUrl: `http://${HOST}:${embeddingsPort}/v1` } } } };
}

async function service(stateDir, workspace, embeddingsPort, { watch = false } = {}) {
  const { MemoryService } = await dist("src/memory/index.js");
  const { applyDefaults } = await dist("src/config/defaults.js");
  const config = applyDefaults(memoryConfig(embeddingsPort));
  return new MemoryService({
    stateDir,
    config: () => config,
    env: {},
    watch,
    workspaceDirOf: () => workspace,
    embedder: instantEmbedder(DIMS),
    logger: { warn() {}, info() {}, debug() {} },
  });
}

/** Time to index `count` notes, and the longest the event loop was held meanwhile. */
async function measureIndexing(embeddingsPort) {
  const root = makeTempDir("memory-index");
  const workspace = path.join(root, "workspace");
  writeNotes(workspace, NOTES_FOR_INDEXING, NOTE_BYTES, 1);
  const memory = await service(path.join(root, "state"), workspace, embeddingsPort);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = now();
  await memory.sync("main");
  const ms = now() - started;
  loop.disable();
  const status = await memory.status("main");
  await memory.close();
  return {
    notes: NOTES_FOR_INDEXING,
    megabytes: round((NOTES_FOR_INDEXING * NOTE_BYTES) / MiB, 2),
    chunks: status.chunks,
    ms: round(ms, 0),
    eventLoopMaxBlockMs: round(loop.max / 1e6, 1),
    eventLoopP99Ms: round(loop.percentile(99) / 1e6, 1),
  };
}

/** Builds a ~10,000-chunk index (its state dir is reused for the RSS figure) and times searches on it. */
async function measureSearch(embeddingsPort) {
  const root = makeTempDir("memory-search");
  const workspace = path.join(root, "workspace");
  const stateDir = path.join(root, "state");
  // 1,000 notes of ~10 chunks each (400-token chunks with 80 of overlap).
  writeNotes(workspace, BIG_INDEX_CHUNKS / 10, 13_000, 2);
  const memory = await service(stateDir, workspace, embeddingsPort);
  const built = now();
  await memory.sync("main");
  const buildMs = now() - built;
  const status = await memory.status("main");
  const text = textGenerator(3);
  const queries = Array.from({ length: SEARCHES }, () => text(40).split("\n")[0].slice(2, 60));
  for (const q of queries.slice(0, 20)) await memory.search("main", q); // warm-up: statements, page cache
  const samples = [];
  const cpuSamples = [];
  for (const q of queries) {
    const cpu = process.cpuUsage();
    const t = now();
    const answer = await memory.search("main", q);
    samples.push(now() - t);
    const used = process.cpuUsage(cpu);
    cpuSamples.push((used.user + used.system) / 1000);
    if (answer.mode !== "hybrid") throw new Error(`memory bench: search ran ${answer.mode}: ${answer.warnings.join("; ")}`);
  }
  await memory.close();
  return {
    stateDir,
    workspace,
    figures: {
      chunks: status.chunks,
      dims: status.dims,
      vectorBackend: status.vectorBackend,
      buildMs: round(buildMs, 0),
      searches: SEARCHES,
      p50Ms: round(percentile(samples, 50), 2),
      p95Ms: round(percentile(samples, 95), 2),
      maxMs: round(Math.max(...samples), 2),
      // The process's CPU time per search: what the search costs when other work on the machine
      // delays it (a loaded machine inflates the wall-clock figures above, not this one).
      cpuP50Ms: round(percentile(cpuSamples, 50), 2),
      cpuP95Ms: round(percentile(cpuSamples, 95), 2),
      note: "query embedding excluded: an in-process instant embedder",
    },
  };
}

/** From writing a note to the watcher's sync having indexed it (default 1.5 s debounce). */
async function measureWatcher(embeddingsPort) {
  const root = makeTempDir("memory-watch");
  const workspace = path.join(root, "workspace");
  writeNotes(workspace, 50, NOTE_BYTES, 4);
  const memory = await service(path.join(root, "state"), workspace, embeddingsPort, { watch: true });
  await memory.sync("main");
  const samples = [];
  for (let i = 0; i < 3; i++) {
    const marker = `zephyrmarker${i}`;
    const before = (await memory.status("main")).lastSyncAt;
    const written = now();
    fs.writeFileSync(path.join(workspace, "memory", `watch-${i}.md`), `- the ${marker} note\n`);
    for (;;) {
      const status = await memory.status("main");
      if (status.lastSyncAt !== before && !status.dirty && !status.indexing) break;
      await sleep(5);
    }
    samples.push(now() - written);
    const found = await memory.search("main", marker);
    if (found.results[0]?.path !== `memory/watch-${i}.md`) throw new Error("memory bench: the watched note was not searchable after its sync");
  }
  await memory.close();
  return { writes: samples.length, medianMs: round(percentile(samples, 50), 0), maxMs: round(Math.max(...samples), 0), debounceMs: 1500 };
}

/** A gateway's RSS before memory is used, and after it opened the 10,000-chunk index and searched it. */
async function measureGatewayRss(embeddingsPort, stateDir, workspace) {
  const port = await freePort();
  fs.writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({ gateway: { port, auth: { token: TOKEN } }, agents: { defaults: { workspace } }, logging: { level: "warn" }, ...memoryConfig(embeddingsPort) }),
  );
  const gateway = spawnGateway({ label: "memory", stateDir, port, token: TOKEN });
  try {
    await gateway.waitForReady(15_000);
    await sleep(1000);
    const before = gateway.rssBytes("memory: rss before") / MiB;
    const { ws } = await connectHello(`ws://${HOST}:${port}`, TOKEN, { step: "memory: connect" });
    const text = textGenerator(5);
    for (let i = 0; i < 50; i++) {
      await rpc(ws, "memory.search", { query: text(40).split("\n")[0].slice(2, 60) }, { timeoutMs: 60_000, step: "memory: memory.search" });
    }
    const status = await rpc(ws, "memory.status", {}, { step: "memory: memory.status" });
    await sleep(1000);
    const after = gateway.rssBytes("memory: rss after") / MiB;
    await closeClient(ws);
    return { chunks: status.payload.chunks, mode: status.payload.mode, rssBeforeMiB: round(before, 1), rssAfterMiB: round(after, 1), rssGrowthMiB: round(after - before, 1) };
  } finally {
    await gateway.stop();
  }
}

export async function measureMemory() {
  const embeddings = await startInstantEmbeddings(DIMS);
  try {
    const indexing = await measureIndexing(embeddings.port);
    const search = await measureSearch(embeddings.port);
    const watcher = await measureWatcher(embeddings.port);
    const gateway = await measureGatewayRss(embeddings.port, search.stateDir, search.workspace);
    return { dims: DIMS, indexing, search: search.figures, watcher, gateway };
  } finally {
    embeddings.server.close();
  }
}
