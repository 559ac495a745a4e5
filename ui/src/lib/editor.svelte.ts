// The add/edit form of a record screen (networks, ACI, server groups): which record is being
// edited, the server's objections by field, what the last save or delete came to, and the
// form's unsaved input kept while the operator is on another screen.

import { ask } from "./confirm.svelte";
import { drafts } from "./drafts.svelte";
import type { ScreenId } from "./screens";
import { describe, fieldErrors } from "./words";

/** What every edited record has. */
interface Named {
  id: string;
  name: string;
}

export class RecordEditor<R extends Named> {
  /** The record being edited; null while adding. */
  editing = $state<R | null>(null);
  errors = $state<Record<string, string>>({});
  status = $state({ text: "", cls: "" });

  /**
   * `what` names one record in sentences ("network"); `reload` fetches the list again after a
   * change; `clear` empties the form.
   */
  constructor(
    private what: string,
    private reload: () => Promise<void>,
    private clear: () => void,
  ) {}

  /** Where the form's draft is kept: its key and the screen the menu marks. */
  private draft: { key: string; screen: ScreenId } | null = null;

  /** The form to start the screen with: the one left unsaved when it was last closed (and the
   * record it was editing), else `blank`. Call while the screen is set up, then `track`. */
  resume<F>(screen: ScreenId, blank: F, key: string = screen): F {
    this.draft = { key, screen };
    const kept = drafts.peek<{ editing: R | null; form: F }>(key);
    if (!kept) return blank;
    this.editing = kept.editing;
    this.status = { text: "Your unsaved input is as you left it.", cls: "warn" };
    return kept.form;
  }

  /** Keep `form()` as the draft while it differs from `formOf(editing)`, what the form shows for
   * the record being edited (the blank form when adding). Call while the screen is set up. */
  track<F>(form: () => F, formOf: (r: R | null) => F): void {
    $effect(() => {
      const f = $state.snapshot(form());
      const was = this.editing;
      const at = this.draft;
      if (!at) return;
      drafts.note(at.key, at.screen, was ? `${this.what} ${was.name} (editing)` : `a new ${this.what}`, { editing: was, form: f }, { editing: was, form: formOf(was) });
    });
  }

  edit(r: R): void {
    this.editing = r;
    this.errors = {};
    this.status = { text: "", cls: "" };
  }

  reset(): void {
    this.editing = null;
    this.errors = {};
    this.clear();
  }

  /** Store the form through `write` (handed the record being edited, null when adding). On
   * success the form is cleared and the list reloaded; `outcome` may add to the sentence. On
   * failure the form stays as it is, with each objection at its field, and `failed` sees the
   * error. */
  async save(
    write: (editing: R | null) => Promise<Named>,
    outcome = "",
    failed: (e: unknown) => void = () => undefined,
  ): Promise<Named | null> {
    const was = this.editing;
    try {
      const r = await write(was);
      this.status = { text: `${this.title()} ${r.name} ${was ? "updated" : "created"}${outcome}.`, cls: "ok" };
      this.reset();
      await this.reload();
      return r;
    } catch (e) {
      this.errors = fieldErrors(e);
      this.status = { text: describe(e), cls: "error" };
      failed(e);
      return null;
    }
  }

  /** Delete `r` through `del` once the operator confirms; `note` adds to the question. */
  async remove(r: R, del: (name: string) => Promise<unknown>, note = ""): Promise<void> {
    if (!(await ask({ title: `Delete the ${this.what} ${r.name}?`, lines: note ? [note] : [], yes: "Delete", danger: true }))) return;
    try {
      await del(r.name);
      this.status = { text: `${this.title()} ${r.name} deleted.`, cls: "ok" };
      if (this.editing?.id === r.id) this.reset();
      await this.reload();
    } catch (e) {
      this.status = { text: describe(e), cls: "error" };
    }
  }

  private title(): string {
    return this.what.charAt(0).toUpperCase() + this.what.slice(1);
  }
}
