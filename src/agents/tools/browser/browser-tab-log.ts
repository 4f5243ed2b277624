import type { Page } from "playwright-core";

const MAX_ENTRIES = 200;

export interface PageErrorEntry {
  kind: "pageerror" | "console";
  message: string;
  at: number;
}

export interface RequestEntry {
  method: string;
  url: string;
  resourceType: string;
  status?: number;
  failure?: string;
  at: number;
}

/** A tab's page errors (uncaught exceptions, console errors) and network requests, the most recent MAX_ENTRIES of each. */
export class TabLog {
  readonly errors: PageErrorEntry[] = [];
  readonly requests: RequestEntry[] = [];

  constructor(page: Page) {
    page.on("pageerror", (error) => push(this.errors, { kind: "pageerror", message: error.message, at: Date.now() }));
    page.on("console", (message) => {
      if (message.type() === "error") push(this.errors, { kind: "console", message: message.text(), at: Date.now() });
    });
    const entries = new WeakMap<object, RequestEntry>();
    page.on("request", (request) => {
      const entry: RequestEntry = { method: request.method(), url: request.url(), resourceType: request.resourceType(), at: Date.now() };
      entries.set(request, entry);
      push(this.requests, entry);
    });
    page.on("response", (response) => {
      const entry = entries.get(response.request());
      if (entry) entry.status = response.status();
    });
    page.on("requestfailed", (request) => {
      const entry = entries.get(request);
      if (entry) entry.failure = request.failure()?.errorText ?? "failed";
    });
  }
}

function push<T>(list: T[], entry: T): void {
  list.push(entry);
  if (list.length > MAX_ENTRIES) list.shift();
}
