import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadTlsMaterial } from "../../../../src/gateway/tls/tls-material.js";
import { makeTempDir } from "../../../helpers/gateway-process.js";

const openssl = (args: string[], cwd: string) => execFileSync("openssl", args, { cwd, stdio: "ignore" });
const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** root → intermediate → leaf (for 127.0.0.1), each file in `dir`. */
function chain(dir: string): void {
  fs.writeFileSync(path.join(dir, "ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n");
  fs.writeFileSync(path.join(dir, "leaf.ext"), "subjectAltName=IP:127.0.0.1\n");
  openssl(
    [
      "req",
      "-x509",
      ...EC,
      "-subj",
      "/CN=root",
      "-keyout",
      "root.key",
      "-out",
      "root.pem",
      "-days",
      "2",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign",
    ],
    dir,
  );
  openssl(["req", ...EC, "-subj", "/CN=intermediate", "-keyout", "inter.key", "-out", "inter.csr"], dir);
  openssl(["x509", "-req", "-in", "inter.csr", "-CA", "root.pem", "-CAkey", "root.key", "-CAcreateserial", "-out", "inter.pem", "-days", "2", "-extfile", "ca.ext"], dir);
  openssl(["req", ...EC, "-subj", "/CN=gateway", "-keyout", "leaf.key", "-out", "leaf.csr"], dir);
  openssl(["x509", "-req", "-in", "leaf.csr", "-CA", "inter.pem", "-CAkey", "inter.key", "-CAcreateserial", "-out", "leaf.pem", "-days", "2", "-extfile", "leaf.ext"], dir);
}

/** Whether a client that trusts only the root verifies the server `files` make. */
async function verifiesWithRootOnly(dir: string, files: { certPath: string; keyPath: string; caPath?: string }): Promise<string> {
  const server = https.createServer(loadTlsMaterial(files).options, (_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await new Promise((resolve) => {
      https
        .get(`https://127.0.0.1:${(server.address() as AddressInfo).port}/`, { ca: fs.readFileSync(path.join(dir, "root.pem")), agent: false }, (res) => {
          res.resume();
          resolve(`verified ${res.statusCode}`);
        })
        .on("error", (err: NodeJS.ErrnoException) => resolve(String(err.code)));
    });
  } finally {
    server.close();
  }
}

describe("gateway.tls.caPath", () => {
  it("completes the served chain: a leaf signed by an intermediate verifies against the root only with the intermediate in caPath", async () => {
    const dir = makeTempDir("tls-chain-");
    chain(dir);
    const files = { certPath: path.join(dir, "leaf.pem"), keyPath: path.join(dir, "leaf.key") };
    expect(await verifiesWithRootOnly(dir, files)).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    expect(await verifiesWithRootOnly(dir, { ...files, caPath: path.join(dir, "inter.pem") })).toBe("verified 200");
  });
});
