import { writeFile } from "./temp-dir.js";

/** Writes `<root>/<folder>/SKILL.md` with a frontmatter block and a short body. */
export function writeSkill(root: string, folder: string, frontmatter: string, body = "Steps.\n"): string {
  return writeFile(root, `${folder}/SKILL.md`, `---\n${frontmatter.trim()}\n---\n\n${body}`);
}

export function simpleSkill(name: string, description = `Use when testing ${name}. Extra detail here.`): string {
  return `name: ${name}\ndescription: ${description}`;
}
