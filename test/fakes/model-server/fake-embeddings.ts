/**
 * A deterministic stand-in for a semantic embedding model. Real embedding models place
 * synonyms and inflections of a word near each other; keyword search (BM25) cannot. This fake
 * models exactly that, and nothing more:
 * - function words and numbers carry no meaning here; every other word is folded to a stem
 *   (plural, -ing, -ed, -s dropped) and then through a small fixed thesaurus to one concept
 *   ("rotate", "rotation", "cycled" → rotate);
 * - each concept is hashed onto a signed dimension (feature hashing), and each word's character
 *   trigrams onto others with a lower weight, so spelling variants still overlap;
 * - the vector is L2-normalized, so cosine similarity is concept overlap.
 * It knows no fixture and no query; the thesaurus is general vocabulary.
 */
export const FAKE_EMBEDDING_DIMS = 256;

const THESAURUS: string[][] = [
  ["rotate", "rotation", "cycle", "renew", "replace", "swap", "change"],
  ["deploy", "deployment", "release", "ship", "shipped", "rollout", "launch"],
  ["key", "credential", "secret", "token", "password"],
  ["tuesday", "tuesdays", "weekly", "week"],
  ["car", "automobile", "vehicle", "sedan"],
  ["doctor", "physician", "dentist", "appointment", "checkup", "clinic"],
  ["birthday", "anniversary", "celebration", "party"],
  ["mother", "mom", "mum", "mama", "parent"],
  ["favorite", "favourite", "prefer", "preferred", "like", "likes", "love", "loves"],
  ["coffee", "espresso", "latte", "cappuccino"],
  ["dog", "puppy", "pet", "canine"],
  ["flight", "airline", "fly", "flying", "trip", "travel"],
  ["budget", "cost", "money", "spend", "spending", "price", "expense"],
  ["meeting", "standup", "sync", "call", "discussion"],
  ["bug", "defect", "issue", "crash", "error", "failure", "broken"],
  ["database", "postgres", "sql", "db", "storage"],
  ["backup", "snapshot", "archive", "copy"],
  ["vacation", "holiday", "leave", "break", "time off"],
  ["allergy", "allergic", "intolerance", "sensitive"],
  ["run", "running", "jog", "jogging", "marathon", "exercise", "workout"],
  ["book", "novel", "reading", "read"],
  ["house", "home", "apartment", "flat", "rent", "lease"],
  ["salary", "pay", "raise", "compensation", "income"],
  ["server", "host", "machine", "box", "instance"],
  ["certificate", "cert", "tls", "ssl"],
  ["expire", "expiry", "expiration", "lapse", "renewal"],
  ["child", "kid", "son", "daughter", "children"],
  ["school", "class", "teacher", "lesson"],
  ["wife", "husband", "partner", "spouse"],
  ["garden", "plant", "plants", "flowers", "tomato", "tomatoes"],
  ["language", "spanish", "french", "german", "japanese"],
  ["music", "guitar", "piano", "song", "band"],
  ["phone", "mobile", "cell", "number"],
  ["address", "street", "live", "lives", "located", "location"],
  ["decide", "decided", "decision", "chose", "choose", "agreed", "agreement"],
  ["monitor", "monitoring", "alert", "alerting", "pager", "oncall", "on-call"],
  ["invoice", "bill", "billing", "payment", "receipt"],
  ["recipe", "cook", "cooking", "bake", "dinner", "meal"],
  ["medicine", "medication", "pill", "dose", "prescription"],
  ["部署", "发布", "上线"],
  ["密钥", "秘钥", "凭证"],
];

/** Words a sentence embedding gives next to no weight. */
const FUNCTION_WORDS = new Set(
  "the and for are was were what when where which who whom why how does did has have had this that these those with from into about over under you your our their they them she her his him its not but can could should would will may might must any all some than then there here just also very been being is am an of to in on at by or as it be do we i me my a".split(
    " ",
  ),
);

/** A crude suffix stemmer, applied alike to the thesaurus and to the text: rotates, rotated → rotat. */
function stem(word: string): string {
  let base = word;
  for (const suffix of ["ing", "ed", "es", "s"]) {
    if (base.length > suffix.length + 2 && base.endsWith(suffix)) {
      base = base.slice(0, -suffix.length);
      // planning → plan, shipped → ship
      if (base.length > 3 && base.at(-1) === base.at(-2)) base = base.slice(0, -1);
      break;
    }
  }
  return base.length > 3 && base.endsWith("e") ? base.slice(0, -1) : base;
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function addFeature(vector: number[], feature: string, weight: number): void {
  const h = hash(feature);
  vector[h % vector.length]! += (h & 0x80000000 ? -1 : 1) * weight;
}

const CONCEPT = new Map<string, string>();
for (const group of THESAURUS) for (const word of group) CONCEPT.set(/[a-z]/.test(word) ? stem(word) : word, group[0]!);

const CJK_RUN = /[\u3400-\u9fff]+/g;

export function fakeEmbedding(text: string, dims = FAKE_EMBEDDING_DIMS): number[] {
  const vector = new Array<number>(dims).fill(0);
  const lower = text.toLowerCase();
  for (const word of lower.match(/[a-z]+/g) ?? []) {
    if (word.length < 3 || FUNCTION_WORDS.has(word)) continue;
    const stemmed = stem(word);
    const concept = CONCEPT.get(stemmed) ?? stemmed;
    addFeature(vector, `c:${concept}`, 1);
    for (let i = 0; i + 3 <= word.length; i++) addFeature(vector, `t:${word.slice(i, i + 3)}`, 0.15);
  }
  for (const run of lower.match(CJK_RUN) ?? []) {
    for (const [word, concept] of CONCEPT) if (/[\u3400-\u9fff]/.test(word) && run.includes(word)) addFeature(vector, `c:${concept}`, 1);
    for (let i = 0; i + 2 <= run.length; i++) addFeature(vector, `b:${run.slice(i, i + 2)}`, 0.3);
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  if (norm === 0) vector[0] = 1;
  else for (let i = 0; i < dims; i++) vector[i]! /= norm;
  return vector;
}

/** Ways the fake `/v1/embeddings` can misbehave, for the fault tests. */
export type EmbeddingFault = "http-500" | "wrong-dims" | "nan";

export function embeddingsResponse(body: unknown, fault: EmbeddingFault | undefined, defaultDims = FAKE_EMBEDDING_DIMS): { status: number; body: unknown } {
  const request = (body ?? {}) as { input?: unknown; model?: string; dimensions?: number };
  const inputs = Array.isArray(request.input) ? request.input : [request.input];
  if (inputs.some((i) => typeof i !== "string"))
    return { status: 400, body: { error: { message: "input must be a string or an array of strings", type: "invalid_request_error" } } };
  if (fault === "http-500") return { status: 500, body: { error: { message: "embedding backend down", type: "server_error" } } };
  const dims = typeof request.dimensions === "number" ? request.dimensions : defaultDims;
  const data = (inputs as string[]).map((text, index) => {
    let embedding = fakeEmbedding(text, dims);
    if (fault === "wrong-dims") embedding = embedding.slice(0, dims / 2);
    if (fault === "nan") embedding = embedding.map((v, i) => (i === 0 ? Number.NaN : v));
    return { object: "embedding", index, embedding };
  });
  // JSON has no NaN: JSON.stringify sends null in its place, as a broken JS server would.
  // One token a word, as a stand-in for a tokenizer's count.
  const tokens = (inputs as string[]).reduce((sum, text) => sum + (text.match(/\S+/g)?.length ?? 0), 0);
  return { status: 200, body: { object: "list", data, model: request.model ?? "fake-embedding", usage: { prompt_tokens: tokens, total_tokens: tokens } } };
}
