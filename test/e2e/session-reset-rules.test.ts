import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { askAndWait } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { chatRequests, readIndex, sessionsDir, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `session.reset` through the real gateway, with OpenClaw's rules: a `reset` block without a mode
 * is a daily reset, `idleMinutes` also ends a daily session, whichever comes first, and the older
 * `session.idleMinutes` is an idle reset.
 */

const servers = useFakeServers();

describe("session.reset rules", { timeout: 120_000 }, () => {
  it("a reset without a mode resets daily at atHour, and idleMinutes ends a daily session too", async () => {
    const stateDir = makeTempDir("openclaw-reset-rules-");
    servers.model.setResponder(() => ({ text: "noted" }));
    const startWith = (session: Record<string, unknown>) =>
      startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { session }) } });
    const start = (reset: Record<string, unknown>) => startWith({ reset });
    const send = async (gateway: GatewayProcess, message: string) => {
      const { sock } = await openOperator(gateway.url, gateway.token);
      const key = `run-${Math.random().toString(36).slice(2)}`;
      await sock.request("chat.send", { sessionKey: "notes", message, idempotencyKey: key });
      await sock.request("agent.wait", { runId: key, timeoutMs: 30_000 });
      const history = await sock.request("chat.history", { sessionKey: "notes" });
      sock.close();
      return (history.payload.messages as { role: string }[]).filter((m) => m.role === "user").length;
    };
    /** Moves the session's start, a person's last message and its last write back in time. */
    const backdate = (started: number, interaction = started, written = interaction) => {
      const file = path.join(sessionsDir(stateDir), "sessions.json");
      const index = readIndex(stateDir);
      Object.assign(index["agent:main:notes"], { sessionStartedAt: started, lastInteractionAt: interaction, updatedAt: written });
      fs.writeFileSync(file, JSON.stringify(index));
    };
    const now = new Date();
    const thisHour = now.getHours();
    const boundary = new Date(now).setHours(thisHour, 0, 0, 0);

    // `{atHour}` alone: a daily reset at this hour; a session last active before it starts over.
    let gateway = servers.keep(await start({ atHour: thisHour }));
    expect(await send(gateway, "one")).toBe(1);
    await gateway.stop();
    // A person's message is recorded as the session's last interaction.
    expect(Date.now() - readIndex(stateDir)["agent:main:notes"].lastInteractionAt).toBeLessThan(60_000);
    backdate(boundary - 60_000);
    gateway = servers.keep(await start({ atHour: thisHour }));
    expect(await send(gateway, "two")).toBe(1);

    // Daily at the next hour (its last boundary was almost a day ago) with idleMinutes 60: two
    // hours without a person's message start the session over, though a runtime turn (a
    // heartbeat) wrote to it five minutes ago.
    await gateway.stop();
    backdate(Date.now() - 2 * 60 * 60_000, Date.now() - 2 * 60 * 60_000, Date.now() - 5 * 60_000);
    const reset = { mode: "daily", atHour: (thisHour + 1) % 24, idleMinutes: 60 };
    gateway = servers.keep(await start(reset));
    expect(await send(gateway, "three")).toBe(1);
    expect(await send(gateway, "four")).toBe(2);

    // OpenClaw's older `session.idleMinutes` is read as `session.reset.idleMinutes` (an idle reset), with a warning.
    await gateway.stop();
    backdate(Date.now() - 2 * 60 * 60_000);
    gateway = servers.keep(await startWith({ idleMinutes: 60 }));
    expect(gateway.output()).toContain("session.idleMinutes is the older spelling of session.reset.idleMinutes");
    expect(await send(gateway, "five")).toBe(1);
  });

  it("resetByChannel beats resetByType, which beats reset: a Telegram DM session and an operator session backdated alike", async () => {
    const stateDir = makeTempDir("openclaw-reset-by-");
    const telegram = await servers.startTelegram();
    const OWNER = 4242;
    servers.model.setResponder(() => ({ text: "noted" }));
    const session = {
      dmScope: "per-channel-peer",
      reset: { mode: "none" },
      resetByType: { direct: { mode: "idle", idleMinutes: 120 } },
      resetByChannel: { telegram: { mode: "idle", idleMinutes: 30 } },
    };
    const channels = { telegram: telegramChannelConfig(telegram, { allowFrom: [String(OWNER)] }) };
    const start = async () => {
      const gateway = servers.keep(
        await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { session, channels }) } }),
      );
      await gateway.waitForOutput(/channel account started/, 15_000);
      return gateway;
    };
    const dmKey = `agent:main:telegram:direct:${OWNER}`;
    let messageId = 0;
    /** The session's current id, as the gateway holds it. */
    const sessionIdOf = async (gateway: GatewayProcess, sessionKey: string) => {
      const { sock } = await openOperator(gateway.url, gateway.token);
      const listed = await sock.request("sessions.list", {});
      sock.close();
      return (listed.payload.sessions as { key: string; sessionId: string }[]).find((row) => row.key === sessionKey)!.sessionId;
    };
    /** A DM from the owner, answered; resolves with the DM session's id. */
    const dm = async (gateway: GatewayProcess, text: string) => {
      const answered = chatRequests(servers.model).length + 1;
      telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text, messageId: ++messageId });
      await waitUntil(() => chatRequests(servers.model).length === answered, 15_000, `the DM "${text}"`);
      return sessionIdOf(gateway, dmKey);
    };
    const notes = async (gateway: GatewayProcess, message: string) => {
      const { sock } = await openOperator(gateway.url, gateway.token);
      await askAndWait(sock, "notes", message);
      sock.close();
      return sessionIdOf(gateway, "agent:main:notes");
    };
    const backdate = (sessionKey: string, minutes: number) => {
      const index = readIndex(stateDir);
      const at = Date.now() - minutes * 60_000;
      Object.assign(index[sessionKey], { sessionStartedAt: at, lastInteractionAt: at, updatedAt: at });
      fs.writeFileSync(path.join(sessionsDir(stateDir), "sessions.json"), JSON.stringify(index));
    };

    let gateway = await start();
    const firstDm = await dm(gateway, "one");
    const firstNotes = await notes(gateway, "one");
    await gateway.stop();
    // An hour of silence: past Telegram's 30 minutes, within the 120 minutes of a direct chat.
    backdate(dmKey, 60);
    backdate("agent:main:notes", 60);
    gateway = await start();
    expect(await dm(gateway, "two")).not.toBe(firstDm);
    expect(await notes(gateway, "two")).toBe(firstNotes);
    await gateway.stop();
    backdate("agent:main:notes", 180);
    gateway = await start();
    expect(await notes(gateway, "three")).not.toBe(firstNotes);
  });
});
