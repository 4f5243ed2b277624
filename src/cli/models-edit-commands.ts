import type { Command } from "commander";
import type { DefaultModelKey } from "./models-set-command.js";

/**
 * `openclaw models set|set-image|fallbacks|image-fallbacks|aliases`: OpenClaw's commands that
 * edit the model settings in the local config file (`agents.defaults.model`, `imageModel`,
 * `models.<ref>.alias`); a running gateway picks the change up by its config reload.
 */
export function registerModelsEditCommands(models: Command): void {
  for (const [name, key, description] of [
    ["set", "model", "set the default model (agents.defaults.model)"],
    ["set-image", "imageModel", "set the image model (agents.defaults.imageModel)"],
  ] as const) {
    models
      .command(name)
      .description(description)
      .argument("<model>", "provider/model, an alias, or a model id one provider lists")
      .action(async (model: string) => {
        const { modelsSetCommand } = await import("./models-set-command.js");
        modelsSetCommand(key, model);
      });
  }

  for (const [name, key, noun] of [
    ["fallbacks", "model", "fallback"],
    ["image-fallbacks", "imageModel", "image fallback"],
  ] as const) {
    registerFallbacks(models.command(name).description(`the ${noun} list (agents.defaults.${key}.fallbacks)`), key, noun);
  }

  const aliases = models.command("aliases").description("model aliases (agents.defaults.models.<ref>.alias)");
  aliases
    .command("list")
    .description("list model aliases")
    .option("--json", "print JSON")
    .option("--plain", "one `alias provider/model` per line")
    .action(async (opts) => {
      const { modelsAliasesListCommand } = await import("./models-aliases-command.js");
      modelsAliasesListCommand(opts);
    });
  aliases
    .command("add")
    .description("add or update a model alias")
    .argument("<alias>", "alias name: letters, digits, . _ : -")
    .argument("<model>", "provider/model or an alias (which is repointed, not chained)")
    .action(async (alias: string, model: string) => {
      const { modelsAliasesAddCommand } = await import("./models-aliases-command.js");
      modelsAliasesAddCommand(alias, model);
    });
  aliases
    .command("remove")
    .description("remove a model alias")
    .argument("<alias>", "alias name (any case)")
    .action(async (alias: string) => {
      const { modelsAliasesRemoveCommand } = await import("./models-aliases-command.js");
      modelsAliasesRemoveCommand(alias);
    });
}

function registerFallbacks(group: Command, key: DefaultModelKey, noun: string): void {
  group
    .command("list")
    .description(`list ${noun} models`)
    .option("--json", "print JSON")
    .option("--plain", "one model per line")
    .action(async (opts) => {
      const { modelsFallbacksListCommand } = await import("./models-fallbacks-command.js");
      modelsFallbacksListCommand(key, opts);
    });
  group
    .command("add")
    .description(`add ${noun === "fallback" ? "a" : "an"} ${noun} model (at the end)`)
    .argument("<model>", "provider/model, an alias, or a model id one provider lists")
    .action(async (model: string) => {
      const { modelsFallbacksAddCommand } = await import("./models-fallbacks-command.js");
      modelsFallbacksAddCommand(key, model);
    });
  group
    .command("remove")
    .description(`remove ${noun === "fallback" ? "a" : "an"} ${noun} model`)
    .argument("<model>", "provider/model or an alias")
    .action(async (model: string) => {
      const { modelsFallbacksRemoveCommand } = await import("./models-fallbacks-command.js");
      modelsFallbacksRemoveCommand(key, model);
    });
  group
    .command("clear")
    .description(`clear all ${noun} models`)
    .action(async () => {
      const { modelsFallbacksClearCommand } = await import("./models-fallbacks-command.js");
      modelsFallbacksClearCommand(key);
    });
}
