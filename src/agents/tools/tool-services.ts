import type { ToolServices } from "../types.js";
import { ProcessRegistry } from "./process-registry.js";

/** One set per gateway process: the registry must outlive the runs that start processes. */
export function createToolServices(overrides: ToolServices = {}): ToolServices {
  return { processes: new ProcessRegistry(), ...overrides };
}

export function getProcessRegistry(services: ToolServices): ProcessRegistry | undefined {
  return services.processes;
}
