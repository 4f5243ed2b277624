import { describe, expect, it } from "vitest";
import { HandedOver } from "../../../../src/channels/inbound/handed-over.js";
import type { InboundMessage } from "../../../../src/channels/types.js";

const message = { chatId: "42", messageId: "7" } as InboundMessage;

describe("HandedOver", () => {
  it("lets the run that handed a message over have it again, and refuses it to any other run of the account", () => {
    const handedOver = new HandedOver<object>();
    const first = {};
    const restarted = {};
    expect(handedOver.claim("telegram", "default", message, first)).toBe("telegram|default|42||7");
    expect(handedOver.claim("telegram", "default", message, first)).toBe("telegram|default|42||7");
    expect(handedOver.claim("telegram", "default", message, restarted)).toBe(false);
    expect(handedOver.claim("telegram", "work", message, restarted)).toBe("telegram|work|42||7");
  });

  it("gives a message up for the next run once the run that claimed it releases it", () => {
    const handedOver = new HandedOver<object>();
    const first = {};
    const restarted = {};
    const place = handedOver.claim("slack", "default", message, first) as string;
    handedOver.release(place, restarted);
    expect(handedOver.claim("slack", "default", message, restarted)).toBe(false);
    handedOver.release(place, first);
    expect(handedOver.claim("slack", "default", message, restarted)).toBe(place);
  });
});
