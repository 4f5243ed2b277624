/**
 * `{{path}}` placeholders filled from a webhook's JSON body: `{{subject}}`, `{{sender.name}}`,
 * `{{messages[0].id}}`. A path that leads nowhere becomes an empty string; objects are written
 * as JSON.
 */
export function renderTemplate(template: string, body: unknown): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_$.[\]-]+)\s*\}\}/g, (_match, path: string) => {
    const value = lookup(body, path);
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  });
}

function lookup(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const part of path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter(Boolean)) {
    if (current === null || typeof current !== "object") return undefined;
    // Own properties only: a template must not reach prototypes.
    if (!Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
