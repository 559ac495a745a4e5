// Files dropped on the window. Inside the app the webview hands over their paths (the files
// stay where they are and are linked or copied into svc by the core); in a browser the page
// gets the files' bytes and uploads them.

import { getCurrentWebview } from "@tauri-apps/api/webview";
import { insideApp } from "./api";

export interface DropHandlers {
  /** Paths dropped on the app window. */
  paths: (paths: string[]) => void;
  /** Files dropped on the page in a browser. */
  files: (files: File[]) => void;
  /** A drag from outside hovers (true) or left (false). */
  hover: (over: boolean) => void;
}

/** Listen for files dropped anywhere on the window; returns the function that stops listening. */
export function listenForDrops(h: DropHandlers): () => void {
  // Tests and keyboard paths call the same handler the drop calls.
  (window as unknown as { bootsmithDrop?: (p: string[]) => void }).bootsmithDrop = h.paths;
  if (insideApp()) {
    let stop: (() => void) | null = null;
    let stopped = false;
    getCurrentWebview()
      .onDragDropEvent((e) => {
        if (e.payload.type === "drop") {
          h.hover(false);
          h.paths(e.payload.paths);
        } else if (e.payload.type === "leave") h.hover(false);
        else h.hover(true);
      })
      .then((unlisten) => (stopped ? unlisten() : (stop = unlisten)))
      .catch(() => undefined);
    return () => {
      stopped = true;
      stop?.();
    };
  }
  const isFiles = (e: DragEvent) => e.dataTransfer?.types.includes("Files") ?? false;
  const over = (e: DragEvent) => {
    if (!isFiles(e)) return;
    e.preventDefault();
    h.hover(true);
  };
  const leave = (e: DragEvent) => {
    // Only leaving the window counts, not moving between its elements.
    if (isFiles(e) && e.relatedTarget === null) h.hover(false);
  };
  const drop = (e: DragEvent) => {
    if (!isFiles(e)) return;
    e.preventDefault();
    h.hover(false);
    h.files([...(e.dataTransfer?.files ?? [])]);
  };
  window.addEventListener("dragover", over);
  window.addEventListener("dragleave", leave);
  window.addEventListener("drop", drop);
  return () => {
    window.removeEventListener("dragover", over);
    window.removeEventListener("dragleave", leave);
    window.removeEventListener("drop", drop);
  };
}
