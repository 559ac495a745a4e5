// Unsaved input, kept while the operator visits other screens: a form leaves its draft here
// when its screen closes and takes it back when the screen opens again. The menu marks the
// screens holding one, and closing the window or the tab asks first.

import type { ScreenId } from "./screens";

interface Kept {
  screen: ScreenId;
  /** What is unsaved, in a few words ("3 host rows"), for the menu and the question. */
  what: string;
  value: unknown;
}

class Drafts {
  /** Each draft by its form's key. */
  private kept = $state<Record<string, Kept>>({});

  /** Keep `value` as the draft of the form `key` on `screen`. */
  keep(key: string, screen: ScreenId, what: string, value: unknown): void {
    this.kept[key] = { screen, what, value };
  }

  /** The draft of `key`, if any; it stays kept until the form drops it. */
  peek<T>(key: string): T | undefined {
    return this.kept[key]?.value as T | undefined;
  }

  /** Keep `value` as the draft of `key` while it differs from `saved`, what the form shows
   * with nothing typed; forget it once they are the same again. With `saved` unknown yet (the
   * stored values are still being read) the draft is left as it is. */
  note<F>(key: string, screen: ScreenId, what: string, value: F, saved: F | undefined): void {
    if (saved === undefined) return;
    if (JSON.stringify(value) === JSON.stringify(saved)) this.drop(key);
    else this.keep(key, screen, what, value);
  }

  /** Forget the draft of `key` (saved, discarded or emptied). */
  drop(key: string): void {
    if (key in this.kept) delete this.kept[key];
  }

  /** What `screen` holds unsaved, in words; "" when nothing. */
  on(screen: ScreenId): string {
    return Object.values(this.kept)
      .filter((k) => k.screen === screen)
      .map((k) => k.what)
      .join(", ");
  }

  /** Every unsaved thing in words, one per form. */
  all(): string[] {
    return Object.values(this.kept).map((k) => k.what);
  }
}

/** The window's drafts. */
export const drafts = new Drafts();

/** Keep `form()` as the draft `key` of `screen` whenever it changes, while it differs from
 * `saved()` (see `note`); `what` names it for the menu and the question. Call while a
 * component is set up: the tracking ends with it. */
export function trackDraft<F>(key: string, screen: ScreenId, what: (form: F) => string, form: () => F, saved: () => F | undefined): void {
  $effect(() => {
    const f = $state.snapshot(form()) as F;
    drafts.note(key, screen, what(f), f, saved());
  });
}
