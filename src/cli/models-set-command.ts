import { modelTargetOrFail, ownModelWarning, rawDefault, readModelsConfig, reportSaved, writeModelsKey } from "./models-config-file.js";

/** The two defaults `models set` and `models set-image` write. */
export type DefaultModelKey = "model" | "imageModel";

const LABEL: Record<DefaultModelKey, string> = { model: "Default model", imageModel: "Image model" };

/**
 * `openclaw models set <model>` / `models set-image <model>`: writes the resolved `provider/model`
 * as `agents.defaults.model` (or `imageModel`). A string stays a string; an object (or none) gets
 * its `primary`, so its fallbacks stay. An unknown provider writes nothing.
 */
export function modelsSetCommand(key: DefaultModelKey, modelRaw: string): void {
  const file = readModelsConfig();
  const target = modelTargetOrFail(modelRaw, file.config);
  const current = rawDefault(file, key);
  const currentRef = typeof current === "string" ? current : typeof current === "object" && current !== null ? (current as { primary?: unknown }).primary : undefined;
  const result = `${LABEL[key]}: ${target.ref}`;
  const notes = [...(target.warning ? [target.warning] : []), ...(key === "model" ? ownModelWarning(file.config) : [])];
  if (currentRef === target.ref) {
    process.stdout.write(`${result} (unchanged)\n`);
    for (const note of notes) process.stderr.write(`warning: ${note}\n`);
    return;
  }
  const warnings = typeof current === "string" ? writeModelsKey(file, `agents.defaults.${key}`, target.ref) : writeModelsKey(file, `agents.defaults.${key}.primary`, target.ref);
  reportSaved(file, result, [...notes, ...warnings]);
}
