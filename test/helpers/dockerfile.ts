import fs from "node:fs";

export interface DockerStage {
  from: string;
  name?: string;
  /** `COPY` instructions in order; `fromStage` set for `COPY --from=<stage>`. */
  copies: { sources: string[]; dest: string; fromStage?: string }[];
  runs: string[];
}

/**
 * The stages of a Dockerfile, with their COPY and RUN instructions (line continuations joined,
 * comments dropped). Only the instructions this project's Dockerfile uses are understood; any
 * other one that would change the build (ADD, WORKDIR other than /app) fails loudly.
 */
export function parseDockerfile(file: string): DockerStage[] {
  const text = fs.readFileSync(file, "utf8").replace(/\\\n/g, " ");
  const stages: DockerStage[] = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (line === "" || line.startsWith("#")) continue;
    const [instruction, ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    switch (instruction!.toUpperCase()) {
      case "FROM": {
        const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
        stages.push({ from: m[1]!, ...(m[2] ? { name: m[2] } : {}), copies: [], runs: [] });
        break;
      }
      case "COPY": {
        const words = args.split(/\s+/);
        const flags = words.filter((w) => w.startsWith("--"));
        const paths = words.filter((w) => !w.startsWith("--"));
        const fromStage = flags.find((f) => f.startsWith("--from="))?.slice("--from=".length);
        stages.at(-1)!.copies.push({ sources: paths.slice(0, -1), dest: paths.at(-1)!, ...(fromStage ? { fromStage } : {}) });
        break;
      }
      case "RUN":
        stages.at(-1)!.runs.push(args);
        break;
      case "WORKDIR":
        if (args !== "/app") throw new Error(`Dockerfile: WORKDIR ${args} is not understood by this test`);
        break;
      case "ADD":
        throw new Error("Dockerfile: ADD is not understood by this test; use COPY");
      default:
        break;
    }
  }
  return stages;
}
