/** A top-level or nested plain mapping key followed by ":" (no quotes, anchors, tags, merge keys). */
const PLAIN_KEY_LINE = /^( *)([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
const BLANK_OR_COMMENT = /^\s*(#.*)?$/;

/**
 * The `wanted` scalar children of the `gateway:` block of a YAML config, read line by line without
 * the YAML parser, for the shape onboarding writes and people usually keep: every top-level line a
 * plain `key:` line, `gateway:` alone on its line, its children plain `key: value` lines at one
 * indentation. Null when there is no `gateway` key. Undefined for anything else (flow style,
 * anchors and aliases, merge keys, tags, quoted or explicit keys, several documents, tabs, or a
 * wanted value that is not a one-line scalar): only the real parser can say what those mean.
 * A wanted key with no value and nothing but comments under it is null in YAML: left out.
 * Values are strings, or numbers when all digits.
 */
export function yamlGatewayBlock(text: string, wanted: ReadonlySet<string>): Record<string, string | number> | null | undefined {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r?\n/);
  let block: string[] | undefined;
  let topLevelSeen = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (BLANK_OR_COMMENT.test(line)) continue;
    if (/^[ \t]/.test(line)) {
      // Inside some top-level key's value; before any top-level key it would be an indented root.
      if (line.startsWith("\t") || !topLevelSeen) return undefined;
      continue;
    }
    topLevelSeen = true;
    const key = PLAIN_KEY_LINE.exec(line);
    if (!key) return undefined;
    if (key[2] !== "gateway") continue;
    if (block || !BLANK_OR_COMMENT.test(key[3] ?? "")) return undefined;
    block = [];
    while (i + 1 < lines.length && (BLANK_OR_COMMENT.test(lines[i + 1]!) || /^[ \t]/.test(lines[i + 1]!))) block.push(lines[++i]!);
  }
  return block ? childScalars(block, wanted) : null;
}

function childScalars(block: string[], wanted: ReadonlySet<string>): Record<string, string | number> | undefined {
  const fields: Record<string, string | number> = {};
  const seen = new Set<string>();
  let indent: number | undefined;
  for (let i = 0; i < block.length; i++) {
    const line = block[i]!;
    if (BLANK_OR_COMMENT.test(line)) continue;
    const match = PLAIN_KEY_LINE.exec(line);
    const depth = /^ */.exec(line)![0].length;
    indent ??= depth;
    if (line[depth] === "\t" || depth < indent) return undefined;
    if (depth > indent) continue; // a grandchild, e.g. under auth:
    if (!match || seen.has(match[2]!)) return undefined;
    seen.add(match[2]!);
    if (!wanted.has(match[2]!)) continue;
    if (BLANK_OR_COMMENT.test(match[3] ?? "")) {
      const next = block.slice(i + 1).find((later) => !BLANK_OR_COMMENT.test(later));
      if (next !== undefined && /^ */.exec(next)![0].length > depth) return undefined; // a nested block
      continue;
    }
    const value = scalar(match[3] ?? "");
    if (value === undefined) return undefined;
    fields[match[2]!] = value;
  }
  return fields;
}

/** A one-line scalar: "double" or 'single' quoted without escapes, or plain; undefined for anything else. */
function scalar(raw: string): string | number | undefined {
  const quoted = /^"([^"\\]*)"\s*(#.*)?$/.exec(raw) ?? /^'([^']*)'\s*(#.*)?$/.exec(raw);
  if (quoted) return quoted[1]!;
  const plain = raw.replace(/(^|\s+)#.*$/, "").trim();
  if (!/^[A-Za-z0-9._:/-]+$/.test(plain)) return undefined;
  return /^\d+$/.test(plain) ? Number(plain) : plain;
}
