import { Type } from "@sinclair/typebox";
import { TASK_RUNTIMES, TASK_STATUSES, type TaskRecord, type TaskStatus } from "../../tasks/index.js";
import { invalidRequest, unavailable } from "../protocol/errors.js";
import { cancelTask, type TaskCancelDeps } from "../task-cancel.js";
import { LEDGER_RPC_STATUSES, storedStatusesFor, taskSummary } from "../task-summary.js";
import type { MethodRegistry } from "./registry.js";

const DEFAULT_LIST_LIMIT = 100;
const StatusName = Type.Union([...new Set<string>([...LEDGER_RPC_STATUSES, ...TASK_STATUSES])].map((s) => Type.Literal(s)));
const Lookup = Type.String({ minLength: 1, maxLength: 512 });

/**
 * `tasks.list`, `tasks.get`, `tasks.cancel`: the background task ledger (docs/protocol.md, "Tasks").
 * `taskId` is a lookup token: a task id, a run id, or the session key the task runs in.
 */
export function registerTaskMethods(registry: MethodRegistry, deps: TaskCancelDeps & { canonicalSessionKey: (key: string) => string }): void {
  const { ledger } = deps;
  const failed = (error: unknown): never => {
    throw unavailable(`the task ledger is unavailable: ${(error as Error).message}`);
  };
  const find = async (token: string): Promise<TaskRecord | undefined> => {
    const found = await ledger.lookup(token).catch(failed);
    if (found) return found;
    const canonical = canonicalOrUndefined(deps.canonicalSessionKey, token);
    return canonical && canonical !== token ? ledger.lookup(canonical).catch(failed) : undefined;
  };

  registry.register({
    name: "tasks.list",
    scope: "operator.read",
    params: Type.Object(
      {
        status: Type.Optional(Type.Union([StatusName, Type.Array(StatusName, { minItems: 1, maxItems: 13 })])),
        runtime: Type.Optional(Type.Union(TASK_RUNTIMES.map((r) => Type.Literal(r)))),
        agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        sessionKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
        cursor: Type.Optional(Type.String()),
        sortBy: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    handler: async (params) => {
      if (params.cursor !== undefined) throw invalidRequest("tasks.list cursor is not supported here: ask for up to 500 tasks with limit, newest first");
      if (params.sortBy !== undefined) throw invalidRequest("tasks.list sortBy is not supported here: tasks come newest first by creation time");
      const statuses = params.status === undefined ? undefined : [...new Set((Array.isArray(params.status) ? params.status : [params.status]).flatMap(storedStatusesFor))];
      const sessionKey = params.sessionKey ? (canonicalOrUndefined(deps.canonicalSessionKey, params.sessionKey) ?? params.sessionKey) : undefined;
      const tasks = await ledger
        .list({
          limit: params.limit ?? DEFAULT_LIST_LIMIT,
          ...(statuses ? { statuses: statuses as TaskStatus[] } : {}),
          ...(params.runtime ? { runtime: params.runtime } : {}),
          ...(params.agentId ? { agentId: params.agentId } : {}),
          ...(sessionKey ? { sessionKey } : {}),
        })
        .catch(failed);
      return { tasks: tasks.map((task) => taskSummary(task)) };
    },
  });

  registry.register({
    name: "tasks.get",
    scope: "operator.read",
    params: Type.Object({ taskId: Lookup }, { additionalProperties: false }),
    handler: async (params) => {
      const task = await find(params.taskId);
      if (!task) throw invalidRequest(`task not found: ${params.taskId} (give a task id, run id or session key; openclaw tasks list shows them)`);
      return { task: taskSummary(task, { includePrompt: true }) };
    },
  });

  registry.register({
    name: "tasks.cancel",
    scope: "operator.write",
    params: Type.Object({ taskId: Lookup, reason: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false }),
    handler: async (params) => {
      const task = await find(params.taskId);
      if (!task) return { found: false, cancelled: false, reason: `task not found: ${params.taskId}` };
      const outcome = await cancelTask(task, params.reason?.trim() || undefined, deps);
      const now = (await ledger.lookup(task.taskId).catch(failed)) ?? task;
      return { found: true, cancelled: outcome.cancelled, ...(outcome.cancelled ? {} : { reason: outcome.reason }), task: taskSummary(now) };
    },
  });
}

function canonicalOrUndefined(canonical: (key: string) => string, key: string): string | undefined {
  try {
    return canonical(key);
  } catch {
    return undefined;
  }
}
