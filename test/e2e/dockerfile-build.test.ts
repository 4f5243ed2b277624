import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseDockerfile } from "../helpers/dockerfile.js";
import { cleanEnv, makeTempDir } from "../helpers/gateway-process.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const [build, runtime] = parseDockerfile(path.join(ROOT, "Dockerfile"));

/** Where `dest` (relative to WORKDIR /app, or absolute under /app) lands inside `app`. */
function inApp(app: string, dest: string): string {
  return path.join(app, dest.replace(/^\/app\/?/, ""));
}

/** `COPY a b ./dir/` or `COPY src ./src`: every source into dest, as docker does for these forms. */
function copyInto(fromRoot: string, app: string, sources: string[], dest: string): void {
  for (const source of sources) {
    const from = path.join(fromRoot, source.replace(/^\/app\/?/, ""));
    expect(fs.existsSync(from), `COPY source ${source} exists`).toBe(true);
    const target = sources.length > 1 || dest.endsWith("/") ? path.join(inApp(app, dest), path.basename(source)) : inApp(app, dest);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    // node_modules is the one thing not copied: npm ci would have made it from the lockfile.
    if (path.basename(from) === "node_modules") fs.symlinkSync(path.join(ROOT, "node_modules"), target, "dir");
    else fs.cpSync(from, target, { recursive: true });
  }
}

/**
 * There is no Docker engine here, so the image's build steps run on a directory holding exactly
 * what the Dockerfile copies: a source the build needs but the Dockerfile forgets (as `extensions/`
 * once was) fails this test the way it would fail `docker build`. Installing is not repeated:
 * `npm ci` makes node_modules from the copied lockfile, which is this checkout's node_modules.
 */
describe("Dockerfile", () => {
  const workDir = makeTempDir("openclaw-docker-");
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it("has a build stage that installs from the lockfile, builds, and prunes dev dependencies", () => {
    expect(build?.name).toBe("build");
    expect(build!.from).toMatch(/^node:24-/);
    expect(runtime!.from).toMatch(/^node:24-/);
    expect(build!.runs).toEqual(["npm ci --ignore-scripts && npm rebuild better-sqlite3", "npm run build && npm prune --omit=dev --ignore-scripts"]);
  });

  it("builds from exactly the files it copies, and the image it assembles starts a gateway", async () => {
    const buildApp = path.join(workDir, "build");
    for (const copy of build!.copies) copyInto(ROOT, buildApp, copy.sources, copy.dest);
    copyInto(ROOT, buildApp, ["node_modules"], "node_modules");

    const built = spawnSync(process.execPath, [path.join(buildApp, "build/build.mjs")], { cwd: buildApp, encoding: "utf8" });
    expect(built.status, `npm run build in the build stage:\n${built.stdout}${built.stderr}`).toBe(0);

    const image = path.join(workDir, "image");
    for (const copy of runtime!.copies) copyInto(copy.fromStage === "build" ? buildApp : ROOT, image, copy.sources, copy.dest);
    expect(fs.existsSync(path.join(image, "dist/bin/openclaw.cjs"))).toBe(true);
    expect(fs.existsSync(path.join(image, "dist/control-ui/index.html")), "the image serves the built Control UI").toBe(true);
    for (const runtimeDir of ["skills", "hooks"]) expect(fs.existsSync(path.join(image, runtimeDir)), `the image has the bundled ${runtimeDir}`).toBe(true);
    expect(fs.existsSync(path.join(image, "dist/src")), "the image carries the bundle, not tsc's intermediate output").toBe(false);

    const stateDir = makeTempDir();
    const gateway = spawn(process.execPath, [path.join(image, "dist/bin/openclaw.cjs"), "gateway", "run", "--port", "0"], {
      cwd: image,
      env: cleanEnv({ OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "docker-test-token" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      const port = await new Promise<number>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const listening = /"msg":"gateway listening".*"port":(\d+)|"port":(\d+).*"msg":"gateway listening"/.exec(output);
          if (listening) resolve(Number(listening[1] ?? listening[2]));
        };
        gateway.stdout!.on("data", onData);
        gateway.stderr!.on("data", onData);
        gateway.once("exit", (code) => reject(new Error(`the image's gateway exited (${code}) before listening:\n${output}`)));
      });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      gateway.kill("SIGTERM");
      await new Promise((resolve) => gateway.once("exit", resolve));
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  }, 300_000);
});
