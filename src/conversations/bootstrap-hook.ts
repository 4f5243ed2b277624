import type { EmbeddedTurnInput } from "../agents/embedded-turn.js";
import type { InternalHookSink } from "../hooks/internal/types.js";
import type { Logger } from "../infra/logger.js";

const MAX_FILES = 50;

/**
 * `agent:bootstrap` for internal hooks (docs/automation.md#internal-hooks): when an enabled hook
 * listens, the turn hands it the bootstrap files (`context.bootstrapFiles`, `{name, content}[]`)
 * and uses what the hooks leave there. Undefined when no hook listens, so turns do not wait.
 */
export function bootstrapHookFor(hooks: InternalHookSink | undefined, logger: Logger): EmbeddedTurnInput["bootstrapHook"] | undefined {
  if (!hooks?.transform || !hooks.listens?.("agent", "bootstrap")) return undefined;
  const transform = hooks.transform.bind(hooks);
  return async ({ agentId, sessionKey, workspaceDir, files }) => {
    const context = await transform({ type: "agent", action: "bootstrap", ...(sessionKey ? { sessionKey } : {}), context: { agentId, workspaceDir, bootstrapFiles: files } });
    const changed = context.bootstrapFiles;
    if (changed === files) return undefined;
    if (!Array.isArray(changed) || changed.length > MAX_FILES || !changed.every((f) => typeof f?.name === "string" && typeof f?.content === "string")) {
      logger.warn({ agentId, sessionKey }, `agent:bootstrap hooks left bootstrapFiles that are not a list of at most ${MAX_FILES} {name, content}; the workspace files are used`);
      return undefined;
    }
    return changed.map((f: { name: string; content: string }) => ({ name: f.name, content: f.content }));
  };
}
