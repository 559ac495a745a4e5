// Questions before an action that cannot be undone, asked in the window's own dialog (never the
// webview's confirm(), which names nothing and looks like a browser's): one at a time, each
// listing what it will touch.

/** What to ask: a title, one line per affected thing, a warning, the button that says yes. */
export interface Question {
  title: string;
  lines?: string[];
  warning?: string;
  yes: string;
  danger?: boolean;
}

class Asking {
  /** The open question and how to answer it, or none. */
  current = $state<(Question & { answer: (yes: boolean) => void }) | null>(null);

  ask(q: Question): Promise<boolean> {
    // A new question replaces an open one, which counts as "no".
    this.current?.answer(false);
    return new Promise((resolve) => {
      this.current = {
        ...q,
        answer: (yes) => {
          this.current = null;
          resolve(yes);
        },
      };
    });
  }
}

/** The window's one question dialog (components/ConfirmDialog.svelte shows it). */
export const asking = new Asking();

/** Ask `q`; true when the operator said yes. */
export const ask = (q: Question): Promise<boolean> => asking.ask(q);

/** With no SSH key set, ask before making media for (or deploying) `hosts`: installed, they
 * accept no login at all, and nothing on screen says so later. `yes` is the button. */
export const askNoLogin = (hosts: string[], yes: string): Promise<boolean> =>
  ask({
    title: "Install hosts nobody can log in to?",
    lines: hosts,
    warning:
      "No SSH key is set: installed, these hosts accept no login (logins are by key; the root password is random and never shown). Add a key on the Keys screen first, or go ahead anyway.",
    yes,
    danger: true,
  });
