// A rolldown plugin: the ACP SDK's generated zod schemas (one `export const zX = z.…` per
// protocol type, ~180 of them) are built when first used instead of when the SDK loads.
// Building them all is about a third of what `openclaw acp` does before it can answer
// `initialize`, yet a bridge or a gateway uses a handful. Each exported schema becomes a stand-in
// that builds the real schema on first touch and then forwards every property read, write and
// prototype lookup to it; zod binds each schema's methods to the schema itself, so
// `stand-in.parse(x)` runs the real `parse`. Schemas that name each other reach the real ones
// through the same stand-ins, so the first parse of a request builds exactly what it needs.
const GENERATED = /[\\/]@agentclientprotocol[\\/]sdk[\\/]dist[\\/]v1[\\/]schema[\\/]zod\.gen\.js$/;

const STAND_IN = `function lazySchema(build) {
  let real;
  const schema = () => (real ??= build());
  return new Proxy(Object.create(null), {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
`;

export function lazyAcpSchemas() {
  return {
    name: "lazy-acp-schemas",
    transform(code, id) {
      if (!GENERATED.test(id)) return null;
      const program = this.parse(code);
      const edits = [];
      for (const node of program.body) {
        if (node.type === "ImportDeclaration") continue;
        const declaration = node.type === "ExportNamedDeclaration" ? node.declaration : undefined;
        const [declarator, ...more] = declaration?.type === "VariableDeclaration" ? declaration.declarations : [];
        // Anything but `export const zX = <expression>` means the SDK's generator changed shape:
        // fail the build rather than bundle a half-lazy module.
        if (!declarator?.init || more.length > 0 || declarator.id.type !== "Identifier" || !/^z[A-Z]/.test(declarator.id.name)) {
          throw new Error(`lazy-acp-schemas: unexpected statement in ${id} at ${node.start}; update build/lazy-acp-schemas.mjs for this SDK version`);
        }
        edits.push({ start: declarator.init.start, end: declarator.init.end });
      }
      if (edits.length === 0) throw new Error(`lazy-acp-schemas: no schemas found in ${id}`);
      let out = code;
      for (const { start, end } of edits.reverse()) out = `${out.slice(0, start)}/* @__PURE__ */ lazySchema(() => (${out.slice(start, end)}))${out.slice(end)}`;
      return { code: `${STAND_IN}${out}`, map: null };
    },
  };
}
