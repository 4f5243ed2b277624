import fs from "node:fs";
import path from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { parse as parseYaml } from "yaml";
import { CliError } from "../output.js";
import { isPathInside } from "../../infra/real-path.js";

const StringList = Type.Array(Type.String({ minLength: 1 }));
/** Several judges (`provider/model` refs) that vote; more than half must find the reply good enough. */
const JudgeList = Type.Array(Type.String({ minLength: 1 }), { minItems: 2, maxItems: 9, uniqueItems: true });

/** One check of a trial. Exactly one key per grader. */
const Grader = Type.Union([
  Type.Object({ contains: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object({ notContains: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object({ matches: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object(
    {
      file: Type.Object(
        { path: Type.String({ minLength: 1 }), contains: Type.Optional(Type.String()), equals: Type.Optional(Type.String()), exists: Type.Optional(Type.Boolean()) },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object({ toolCalled: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object({ toolNotCalled: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object({ maxToolCalls: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  Type.Object({ noApprovalRequested: Type.Literal(true) }, { additionalProperties: false }),
  Type.Object(
    {
      rubric: Type.String({ minLength: 1 }),
      /** Several judges vote; the grader passes when more than half say PASS. */
      judges: Type.Optional(JudgeList),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      /** The judge compares the reply with a reference answer, in both orders; it passes when the reply is at least as good. */
      compare: Type.Object(
        {
          rubric: Type.String({ minLength: 1 }),
          reference: Type.Optional(Type.String({ minLength: 1 })),
          /** A file holding the reference answer, relative to the task file. */
          referenceFile: Type.Optional(Type.String({ minLength: 1 })),
          /** Several judges each compare in both orders; the grader passes when more than half find the reply at least as good. */
          judges: Type.Optional(JudgeList),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
]);

const TaskSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1 })),
    description: Type.Optional(Type.String()),
    /** One message; or `conversation`, several sent in order (graders look at the last reply). */
    prompt: Type.Optional(Type.String({ minLength: 1 })),
    conversation: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    agent: Type.Optional(
      Type.Object(
        {
          model: Type.Optional(Type.String({ minLength: 1 })),
          tools: Type.Optional(
            Type.Object(
              {
                profile: Type.Optional(Type.Union([Type.Literal("minimal"), Type.Literal("coding"), Type.Literal("messaging"), Type.Literal("full")])),
                allow: Type.Optional(StringList),
                deny: Type.Optional(StringList),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /** A folder (relative to the task file) copied into each trial's fresh workspace. */
    workspace: Type.Optional(Type.String({ minLength: 1 })),
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    graders: Type.Array(Grader, { minItems: 1 }),
  },
  { additionalProperties: false },
);

/** A compare grader as loaded: its reference answer as text, wherever the file gave it. */
export interface CompareGrader {
  compare: { rubric: string; reference: string; judges?: string[] };
}

/** A grader of a loaded task. */
export type GraderSpec = Exclude<Static<typeof Grader>, { compare: unknown }> | CompareGrader;

export interface EvalTask {
  /** The task's name: `name`, else its file name without extension. */
  name: string;
  file: string;
  messages: string[];
  agent: NonNullable<Static<typeof TaskSchema>["agent"]>;
  /** Absolute path of the fixture folder, when the task has one. */
  workspace?: string;
  timeoutSeconds: number;
  graders: GraderSpec[];
}

/** Every `*.yaml` / `*.yml` task of a suite folder, in name order. Any invalid file fails the whole suite. */
export function loadSuite(dir: string): EvalTask[] {
  const root = path.resolve(dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new CliError(`eval suite ${dir}: not a folder. Give the folder that holds the task files (evals/basic).`);
  const files = fs
    .readdirSync(root)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  if (files.length === 0) throw new CliError(`eval suite ${dir}: no task files (*.yaml) in it`);
  const tasks = files.map((f) => loadTask(path.join(root, f), root));
  const seen = new Set<string>();
  for (const task of tasks) {
    if (seen.has(task.name)) throw new CliError(`eval suite ${dir}: two tasks are named "${task.name}"; names must be unique`);
    seen.add(task.name);
  }
  return tasks;
}

/**
 * One task file. The files it names (its `workspace` fixture, a compare grader's
 * `referenceFile`) must be inside `suiteDir`, symlinks followed: a suite copied from elsewhere
 * cannot hand a trial's agent, or a judge model, files from the rest of the machine.
 */
export function loadTask(file: string, suiteDir = path.dirname(file)): EvalTask {
  const inSuite = (field: string, relative: string) => suitePath(file, suiteDir, field, relative);
  let raw: unknown;
  try {
    raw = parseYaml(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new CliError(`eval task ${file}: not valid YAML: ${(err as Error).message.split("\n")[0]}`);
  }
  if (!Value.Check(TaskSchema, raw)) {
    const first = [...Value.Errors(TaskSchema, raw)][0];
    throw new CliError(`eval task ${file}: ${first ? `${first.path || "/"}: ${first.message}` : "invalid"} (docs/evals.md lists the fields)`);
  }
  const task = raw as Static<typeof TaskSchema>;
  if (!task.prompt === !task.conversation) throw new CliError(`eval task ${file}: give exactly one of prompt or conversation`);
  const graders: GraderSpec[] = task.graders.map((grader, i) => ("compare" in grader ? { compare: withReferenceText(grader.compare, file, i, inSuite) } : grader));
  graders.forEach((grader, i) => {
    if ("file" in grader) {
      const why = fileGraderProblem(grader.file);
      if (why) throw new CliError(`eval task ${file}: graders[${i}] file: ${why}`);
    }
    if ("matches" in grader) {
      try {
        new RegExp(grader.matches);
      } catch (err) {
        throw new CliError(`eval task ${file}: matches: ${(err as Error).message}`);
      }
    }
  });
  const workspace = task.workspace ? inSuite("workspace", task.workspace) : undefined;
  return {
    name: task.name ?? path.basename(file).replace(/\.ya?ml$/, ""),
    file,
    messages: task.conversation ?? [task.prompt!],
    agent: task.agent ?? {},
    ...(workspace ? { workspace } : {}),
    timeoutSeconds: task.timeoutSeconds ?? 300,
    graders,
  };
}

/** A compare grader with its reference answer as text: `reference`, or the content of `referenceFile` (relative to the task file). */
function withReferenceText(
  spec: { rubric: string; reference?: string; referenceFile?: string; judges?: string[] },
  file: string,
  index: number,
  inSuite: (field: string, relative: string) => string,
): CompareGrader["compare"] {
  const where = `eval task ${file}: graders[${index}] compare`;
  if ((spec.reference === undefined) === (spec.referenceFile === undefined)) throw new CliError(`${where}: give exactly one of reference or referenceFile`);
  const judges = spec.judges ? { judges: spec.judges } : {};
  if (spec.reference !== undefined) return { rubric: spec.rubric, reference: spec.reference, ...judges };
  const full = inSuite(`graders[${index}] compare: referenceFile`, spec.referenceFile!);
  let text: string;
  try {
    text = fs.readFileSync(full, "utf8");
  } catch (err) {
    throw new CliError(`${where}: referenceFile ${spec.referenceFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (text.trim() === "") throw new CliError(`${where}: referenceFile ${spec.referenceFile} is empty`);
  return { rubric: spec.rubric, reference: text.trimEnd(), ...judges };
}

/**
 * The real path of a file a task names, relative to the task file; a CliError when it does not
 * exist or is outside the suite's folder (through `..`, an absolute path or a symlink).
 */
function suitePath(file: string, suiteDir: string, field: string, relative: string): string {
  let full: string;
  try {
    full = fs.realpathSync.native(path.resolve(path.dirname(file), relative));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(
      `eval task ${file}: ${field} ${relative} ${code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? (err as Error).message})`} (relative to the task file)`,
    );
  }
  const root = fs.realpathSync.native(suiteDir);
  if (!isPathInside(root, full))
    throw new CliError(`eval task ${file}: ${field} ${relative} is outside the suite's folder ${suiteDir}; keep fixtures and reference answers in the suite`);
  return full;
}

/** What makes a file grader check less than it says, in words; undefined when it is sound. */
function fileGraderProblem(spec: { path: string; contains?: string; equals?: string; exists?: boolean }): string | undefined {
  if (spec.contains !== undefined && spec.equals !== undefined) return "give one of contains or equals, not both";
  if (spec.exists === false && (spec.contains !== undefined || spec.equals !== undefined)) return "exists: false checks that the file is not there; drop contains / equals";
  const normal = path.normalize(spec.path);
  if (path.isAbsolute(spec.path) || normal === ".." || normal.startsWith(`..${path.sep}`)) return `path ${spec.path} leaves the trial's workspace; give a path relative to it`;
  return undefined;
}
