import { Type } from "@sinclair/typebox";
import type { DeviceRegistry, PairedDevice } from "../auth/device-registry.js";
import { invalidRequest } from "../protocol/errors.js";
import type { MethodRegistry } from "./registry.js";

const RequestId = Type.Object({ requestId: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false });
const DeviceId = Type.Object({ deviceId: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false });

/** A paired device as operators see it: never its token hash. */
function publicDevice({ tokenHash, ...device }: PairedDevice) {
  return { ...device, hasToken: tokenHash !== undefined };
}

/**
 * `device.pair.list|approve|reject|remove` and `device.token.revoke`: operators answer the pairing
 * requests of devices that connect without the shared secret (see docs/protocol.md, "Device pairing").
 */
export function registerDeviceMethods(registry: MethodRegistry, devices: DeviceRegistry): void {
  registry.register({
    name: "device.pair.list",
    scope: "operator.pairing",
    params: Type.Object({}, { additionalProperties: false }),
    handler: () => {
      const { pending, paired } = devices.list();
      return { pending, paired: paired.map(publicDevice) };
    },
  });

  registry.register({
    name: "device.pair.approve",
    scope: "operator.pairing",
    params: RequestId,
    handler: ({ requestId }) => {
      const device = devices.approve(requestId);
      if (!device) throw invalidRequest(`unknown or expired pairing request "${requestId}" (\`openclaw devices list\` shows the pending ones)`);
      return { ok: true, requestId, device: publicDevice(device) };
    },
  });

  registry.register({
    name: "device.pair.reject",
    scope: "operator.pairing",
    params: RequestId,
    handler: ({ requestId }) => {
      const request = devices.reject(requestId);
      if (!request) throw invalidRequest(`unknown or expired pairing request "${requestId}"`);
      return { ok: true, requestId, deviceId: request.deviceId };
    },
  });

  // Unpairing and revoking the token are one act here: a device without a valid token must pair again.
  for (const name of ["device.pair.remove", "device.token.revoke"]) {
    registry.register({
      name,
      scope: "operator.pairing",
      params: DeviceId,
      handler: ({ deviceId }) => {
        if (!devices.revoke(deviceId.toLowerCase())) throw invalidRequest(`device "${deviceId}" is not paired`);
        return { ok: true, deviceId: deviceId.toLowerCase() };
      },
    });
  }
}
