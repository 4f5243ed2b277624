import type { Locator, Page } from "playwright-core";
import type { BrowserArgs } from "./browser-params.js";

const ACTION_TIMEOUT_MS = 10_000;

/** A ref that no longer names an element (the page changed since the snapshot), or one never given. */
export class StaleRefError extends Error {}

/** The element a snapshot ref names (`e5`, or `aria-ref=e5`); it must still be on the page. */
export async function refLocator(page: Page, ref: string): Promise<Locator> {
  const bare = ref
    .trim()
    .replace(/^aria-ref=/, "")
    .replace(/^\[?ref=/, "")
    .replace(/\]$/, "");
  if (!/^[a-z]*\d*e\d+$/i.test(bare)) throw new StaleRefError(`"${ref}" is not a snapshot ref (refs look like e12)`);
  const locator = page.locator(`aria-ref=${bare}`);
  let count: number;
  try {
    count = await locator.count();
  } catch {
    count = 0;
  }
  if (count === 0) throw new StaleRefError(`ref ${bare} names no element on the page now`);
  return locator;
}

/** Runs one act call (kind checked by checkBrowserArgs) and says what it did. */
export async function runAct(page: Page, args: BrowserArgs): Promise<string> {
  const timeout = ACTION_TIMEOUT_MS;
  switch (args.kind) {
    case "click": {
      const target = await refLocator(page, args.ref!);
      if (args.doubleClick) await target.dblclick({ timeout });
      else await target.click({ timeout });
      return `${args.doubleClick ? "Double-clicked" : "Clicked"} ${args.ref}`;
    }
    case "type": {
      const target = await refLocator(page, args.ref!);
      await target.pressSequentially(args.text!, { timeout });
      if (args.submit) await target.press("Enter", { timeout });
      return `Typed ${args.text!.length} character(s) into ${args.ref}${args.submit ? " and pressed Enter" : ""}`;
    }
    case "fill": {
      const target = await refLocator(page, args.ref!);
      await target.fill(args.text!, { timeout });
      return `Filled ${args.ref} with ${args.text!.length} character(s)`;
    }
    case "press": {
      if (args.ref) await (await refLocator(page, args.ref)).press(args.key!, { timeout });
      else await page.keyboard.press(args.key!);
      return `Pressed ${args.key}${args.ref ? ` on ${args.ref}` : ""}`;
    }
    case "hover": {
      await (await refLocator(page, args.ref!)).hover({ timeout });
      return `Hovered ${args.ref}`;
    }
    case "select": {
      const selected = await (await refLocator(page, args.ref!)).selectOption(args.values!, { timeout });
      return `Selected ${selected.join(", ") || "nothing"} in ${args.ref}`;
    }
    case "wait": {
      const waited: string[] = [];
      if (args.timeMs !== undefined) {
        await page.waitForTimeout(args.timeMs);
        waited.push(`${args.timeMs} ms`);
      }
      if (args.text !== undefined) {
        await page
          .getByText(args.text)
          .first()
          .waitFor({ state: "visible", timeout: ACTION_TIMEOUT_MS * 3 });
        waited.push(`text "${args.text}" to appear`);
      }
      if (args.textGone !== undefined) {
        await page
          .getByText(args.textGone)
          .first()
          .waitFor({ state: "hidden", timeout: ACTION_TIMEOUT_MS * 3 });
        waited.push(`text "${args.textGone}" to disappear`);
      }
      return `Waited for ${waited.join(", then ")}`;
    }
    default:
      throw new Error(`act kind ${String(args.kind)} is not run here`);
  }
}
