import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway } from "../helpers/gateway-process.js";
import { chatRequests, lastUserTextOf, toolNamesOf } from "../helpers/model-request.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * Per-chat and per-sender tool rules through a real gateway and grammY: a group's `tools` and
 * `toolsBySender`, the groups' `"*"` entry, and `tools.toolsBySender`, each seen in the tool list
 * the model gets for a message from that chat and sender; `tools.alsoAllow` adds to the profile.
 */

const OWNER = 4242;
const MEMBER = 5151;
const LOCKED = -100111;
const OTHER = -100222;
const servers = useFakeServers({ telegram: true });

describe("chat and sender tool rules over Telegram", { timeout: 60_000 }, () => {
  it("the group's rule, its sender override, the * entry and tools.toolsBySender shape each turn's tools", async () => {
    const stateDir = makeTempDir("openclaw-chat-tools-");
    servers.model.setResponder(() => ({ text: "ok" }));
    const telegram = telegramChannelConfig(servers.telegram, {
      allowFrom: [String(OWNER)],
      groupAllowFrom: [String(OWNER), String(MEMBER)],
      requireMention: false,
      groups: {
        "*": { tools: { deny: ["web_fetch"] } },
        // A display name matches nothing here (no dangerouslyAllowNameMatching): the member gets the group's rule.
        [LOCKED]: { tools: { deny: ["exec", "write", "edit", "apply_patch"] }, toolsBySender: { [`id:${OWNER}`]: { deny: ["write"] }, [`name:User ${MEMBER}`]: {} } },
        [OTHER]: {},
      },
    });
    const config = fakeModelConfig(servers.model, stateDir, {
      channels: { telegram },
      tools: { profile: "coding", alsoAllow: ["message"], toolsBySender: { [`id:${MEMBER}`]: { deny: ["read"] } } },
    });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 1;
    const turn = async (chatId: number, fromId: number, text: string) => {
      const before = servers.telegram.messages(chatId).length;
      servers.telegram.pushMessage({ chatId, fromId, fromName: `User ${fromId}`, text, messageId: messageId++ });
      await servers.telegram.waitFor(() => servers.telegram.messages(chatId).length > before, 15_000);
      const request = chatRequests(servers.model.requests).find((r) => lastUserTextOf(r).includes(text))!;
      return toolNamesOf(request);
    };

    const memberInLocked = await turn(LOCKED, MEMBER, "member in the locked group");
    expect(memberInLocked).not.toEqual(expect.arrayContaining(["exec"]));
    expect(memberInLocked.filter((t) => ["exec", "write", "edit", "apply_patch", "read"].includes(t))).toEqual([]);
    expect(memberInLocked).toContain("web_fetch");

    const ownerInLocked = await turn(LOCKED, OWNER, "owner in the locked group");
    expect(ownerInLocked).toEqual(expect.arrayContaining(["exec", "edit", "read", "web_fetch"]));
    expect(ownerInLocked).not.toContain("write");

    const ownerElsewhere = await turn(OTHER, OWNER, "owner in the other group");
    expect(ownerElsewhere).toEqual(expect.arrayContaining(["exec", "write", "read"]));
    expect(ownerElsewhere).not.toContain("web_fetch");

    const ownerDm = await turn(OWNER, OWNER, "owner in a DM");
    expect(ownerDm).toEqual(expect.arrayContaining(["exec", "write", "read", "web_fetch"]));
    // The coding profile, with the message tool that alsoAllow adds to it.
    expect(ownerDm).toContain("message");
    expect(ownerDm).not.toContain("gateway");
    await gateway.stop();
  });
  it("channels.telegram.direct: the * entry shapes every DM's tools; a DM's own entry replaces it", async () => {
    const stateDir = makeTempDir("openclaw-direct-tools-");
    servers.model.setResponder(() => ({ text: "ok" }));
    const telegram = {
      ...telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER), String(MEMBER)] }),
      direct: { "*": { tools: { deny: ["write", "edit"] } }, [String(OWNER)]: { tools: {} } },
    };
    const config = fakeModelConfig(servers.model, stateDir, { channels: { telegram }, tools: { profile: "coding" } });
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }));
    await gateway.waitForOutput(/channel account started/, 10_000);
    let messageId = 500;
    const dmTools = async (fromId: number, text: string) => {
      const before = servers.telegram.messages(fromId).length;
      servers.telegram.pushMessage({ chatId: fromId, fromId, fromName: `User ${fromId}`, text, messageId: messageId++ });
      await servers.telegram.waitFor(() => servers.telegram.messages(fromId).length > before, 15_000);
      return toolNamesOf(chatRequests(servers.model.requests).find((r) => lastUserTextOf(r).includes(text))!);
    };
    const member = await dmTools(MEMBER, "member's DM under the wildcard");
    expect(member).toContain("read");
    expect(member.filter((t) => t === "write" || t === "edit")).toEqual([]);
    expect(await dmTools(OWNER, "owner's DM with an entry of its own")).toEqual(expect.arrayContaining(["read", "write", "edit"]));
    await gateway.stop();
  });
});
