const STORAGE_KEY = "openclaw.controlUi.token";

/**
 * The gateway token lives in this browser's localStorage: pasted once, or brought by the
 * `?token=` link the gateway prints. The link's token is taken and removed from the address
 * bar (and its history entry) before anything else runs, so it is not left in bookmarks.
 */
export function takeTokenFromAddress(): string | undefined {
  const url = new URL(window.location.href);
  const fromQuery = url.searchParams.get("token");
  const hash = new URLSearchParams(url.hash.startsWith("#") ? url.hash.slice(1) : "");
  const fromHash = hash.get("token");
  if (fromQuery === null && fromHash === null) return undefined;
  url.searchParams.delete("token");
  if (fromHash !== null) url.hash = "";
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  const token = (fromQuery ?? fromHash ?? "").trim();
  return token || undefined;
}

export function loadToken(): string | undefined {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveToken(token: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage refused (private mode): the token still works for this page's life.
  }
}

export function forgetToken(): void {
  try {
    window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}
