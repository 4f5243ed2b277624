import JSON5 from "json5";
import { LineCounter, parseDocument, type Document } from "yaml";
import { ConfigError } from "./errors.js";
import { isYamlPath } from "./paths.js";

// Errors from the parsers start with a capital ("Map keys must be unique"); ours read
// as one sentence after "file:line:col: ", so lower-case the first word unless it is an acronym.
function sentenceCase(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message[0]!.toLowerCase() + message.slice(1) : message;
}

function positionedError(filePath: string, line: number, column: number, reason: string): ConfigError {
  const message = `${filePath}:${line}:${column}: ${sentenceCase(reason)}`;
  return new ConfigError(message, { issues: [{ path: "", message }], filePath, line, column });
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses YAML into a Document (kept for comment-preserving edits). Anything the yaml
 * package merely warns about (unknown directives, duplicate keys) is an error here: a
 * config that half-parses is a config the user did not mean.
 */
export function parseYamlDocument(text: string, filePath: string): Document {
  const lineCounter = new LineCounter();
  const doc = parseDocument(stripBom(text), { lineCounter, prettyErrors: false, uniqueKeys: true });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const { line, col } = lineCounter.linePos(problem.pos[0]);
    throw positionedError(filePath, line, col, problem.message);
  }
  return doc;
}

/** Converts a parsed YAML document to plain data (aliases resolved). */
export function yamlDocumentToData(doc: Document, filePath: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // Unresolvable or exploding aliases only surface here, without a position.
    throw new ConfigError(`${filePath}: ${sentenceCase((err as Error).message)}`, { filePath });
  }
}

function parseJson5(text: string, filePath: string): unknown {
  try {
    return JSON5.parse(text);
  } catch (err) {
    const e = err as SyntaxError & { lineNumber?: number; columnNumber?: number };
    // A file holding only comments is as empty as a blank one.
    if (
      text
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/[^\n]*/g, "")
        .trim() === ""
    )
      return {};
    const reason = e.message.replace(/^JSON5: /, "").replace(/ at \d+:\d+$/, "");
    if (typeof e.lineNumber === "number" && typeof e.columnNumber === "number") {
      throw positionedError(filePath, e.lineNumber, e.columnNumber, reason);
    }
    throw new ConfigError(`${filePath}: ${reason}`, { filePath });
  }
}

/**
 * Parses config text by file extension: .yaml/.yml as YAML, everything else as JSON5
 * (a superset of JSON, which is what OpenClaw itself writes). An empty file is `{}`;
 * the root must be an object, except in an included file (`anyRoot`), which may hold a list.
 */
export function parseConfigText(text: string, filePath: string, opts: { anyRoot?: boolean } = {}): unknown {
  const clean = stripBom(text);
  if (clean.trim() === "") return {};
  const data = isYamlPath(filePath) ? yamlDocumentToData(parseYamlDocument(clean, filePath), filePath) : parseJson5(clean, filePath);
  if (data === null || data === undefined) return {}; // a YAML file of comments only
  if (opts.anyRoot) return data;
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new ConfigError(`${filePath}: config root must be an object`, { filePath });
  }
  return data;
}
