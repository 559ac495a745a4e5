// Server-Sent Events read from a fetch body: EventSource cannot send the API token, fetch can.

/** One event: its `data` lines joined, and its `id` when it had one. */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

/** Split a stream of SSE text into messages; `push` takes chunks in any split, `end` flushes. */
export class SseParser {
  private buffer = "";
  private id?: string;
  private event?: string;
  private data: string[] = [];

  constructor(private readonly onMessage: (m: SseMessage) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\n|\r/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const width = this.buffer.startsWith("\r\n", nl) ? 2 : 1;
      this.buffer = this.buffer.slice(nl + width);
      this.line(line);
    }
  }

  end(): void {
    if (this.buffer) this.line(this.buffer);
    this.buffer = "";
    this.line("");
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length > 0) {
        this.onMessage({ id: this.id, event: this.event, data: this.data.join("\n") });
      }
      this.data = [];
      this.event = undefined;
      return;
    }
    if (line.startsWith(":")) return; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "id") this.id = value;
    else if (field === "event") this.event = value;
  }
}
