// A rolldown plugin: parts of fastify that the gateway's start-up never uses are left out of
// the bundle and loaded from node_modules (next to fastify) only if something ever calls them.
// The bundle then neither parses nor runs them at start-up, and everything still works as
// before when they are needed:
//
// - The schema compilers (ajv, fast-json-stringify and what they pull in: ~40% of the server
//   chunk). Fastify builds them when an instance is created, but only a route that declares a
//   schema uses them, and the gateway's routes declare none. The stand-in builds the same
//   pooled compiler fastify would have, on the first schema.
// - light-my-request, which only `fastify.inject()` uses (fastify already requires it there).
// - semver, which fastify consults only for plugins that declare the fastify versions they need.
// - node:http2, which fastify only uses to create an HTTP/2 server; the gateway hands it its own
//   HTTP/1 server.
const STAND_INS = [
  { importer: "lib/schema-controller.js", source: "@fastify/ajv-compiler", kind: "factory" },
  { importer: "lib/schema-controller.js", source: "@fastify/fast-json-stringify-compiler", kind: "factory" },
  { importer: "fastify.js", source: "light-my-request", kind: "module" },
  { importer: "lib/plugin-utils.js", source: "semver", kind: "namespace" },
  { importer: "lib/server.js", source: "node:http2", kind: "namespace" },
];
const PREFIX = "\0fastify-on-demand:";

/** The real package, required at run time from fastify's own folder, as fastify itself would. */
const REQUIRE_REAL = (source) => `const { createRequire } = require("node:module");
let real;
const loadReal = () => (real ??= createRequire(require.resolve("fastify"))(${JSON.stringify(source)}));`;

const BODIES = {
  // Called at instance creation as factory(opts); the builder it returns runs per schema set.
  factory: `module.exports = function onDemandFactory(...factoryArgs) {
  let builder;
  return (...builderArgs) => (builder ??= loadReal()(...factoryArgs))(...builderArgs);
};`,
  // Required by fastify only where it is used.
  module: "module.exports = loadReal();",
  // Required when fastify loads; its functions are looked up when called.
  namespace: "module.exports = new Proxy({}, { get: (_, name) => loadReal()[name] });",
};

function fromPackage(importer, file) {
  return importer.replaceAll("\\", "/").endsWith(`/node_modules/fastify/${file}`);
}

export function fastifyOnDemand() {
  return {
    name: "fastify-on-demand",
    resolveId(source, importer) {
      if (!importer) return null;
      // The stand-in's own require of the real package stays a run-time require.
      if (importer.startsWith(PREFIX)) return importer === PREFIX + source ? { id: source, external: true } : null;
      const standIn = STAND_INS.find((s) => s.source === source && fromPackage(importer, s.importer));
      return standIn ? PREFIX + source : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const standIn = STAND_INS.find((s) => PREFIX + s.source === id);
      return `"use strict";\n${REQUIRE_REAL(standIn.source)}\n${BODIES[standIn.kind]}\n`;
    },
  };
}
