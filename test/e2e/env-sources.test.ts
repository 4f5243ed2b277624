import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * Where the gateway's environment comes from: a real gateway process whose provider key is
 * `${VAR}`, with the variable in `<state>/.env` in one run and in `env.vars` in the other; the fake
 * model sees the key, `config.get` shows env.vars hidden, and a variable the process already has wins.
 */

const servers = useFakeServers({});

async function turnAuthorization(stateDir: string, config: Record<string, unknown>, env: Record<string, string> = {}): Promise<{ authorization: string; shown: unknown }> {
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  const gateway = servers.keep(await startGateway({ stateDir, env }));
  const { sock } = await openOperator(gateway.url, gateway.token, { scopes: ["operator.admin"] });
  try {
    const before = servers.model.requests.length;
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "env", message: "hi", idempotencyKey: key });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 15_000);
    const shown = (await sock.request("config.get", {})).payload.config?.env;
    return { authorization: String(servers.model.requests[before]!.headers.authorization), shown };
  } finally {
    sock.close();
    await gateway.stop();
  }
}

function keyedConfig(stateDir: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const config = JSON.parse(fakeModelConfig(servers.model, stateDir, extra));
  config.models.providers.fake.apiKey = "${FAKE_PROVIDER_KEY}";
  return config;
}

describe("environment sources", { timeout: 60_000 }, () => {
  it("<state>/.env, then env.vars, fill the provider key's variable; the process's own value wins", async () => {
    const fromFile = makeTempDir("openclaw-env-file-");
    fs.writeFileSync(path.join(fromFile, ".env"), "# the provider key\nFAKE_PROVIDER_KEY=sk-from-dotenv\n");
    expect((await turnAuthorization(fromFile, keyedConfig(fromFile))).authorization).toBe("Bearer sk-from-dotenv");

    const fromVars = makeTempDir("openclaw-env-vars-");
    const withVars = keyedConfig(fromVars, { env: { vars: { FAKE_PROVIDER_KEY: "sk-from-vars" } } });
    const { authorization, shown } = await turnAuthorization(fromVars, withVars);
    expect(authorization).toBe("Bearer sk-from-vars");
    expect(shown).toEqual({ vars: { FAKE_PROVIDER_KEY: "__OPENCLAW_REDACTED__" } });

    expect((await turnAuthorization(fromVars, withVars, { FAKE_PROVIDER_KEY: "sk-from-process" })).authorization).toBe("Bearer sk-from-process");
  });
});
