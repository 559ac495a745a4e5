import { describe, expect, it } from "vitest";
import { SseParser, type SseMessage } from "./sse";

function parse(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const p = new SseParser((m) => out.push(m));
  for (const c of chunks) p.push(c);
  p.end();
  return out;
}

// What the REST listener sends for a job (see /api/v2/jobs/<id>/events).
const stream =
  'event: step\nid: 1\ndata: {"seq":1,"type":"step","step":"objects","state":"started"}\n\n' +
  ': keep-alive\n\n' +
  'event: finished\nid: 2\ndata: {"seq":2,"type":"finished","state":"succeeded"}\n\n';

describe("SseParser", () => {
  it("reads events with their id, type and data", () => {
    const got = parse([stream]);
    expect(got).toHaveLength(2);
    expect(got[0]).toEqual({ id: "1", event: "step", data: '{"seq":1,"type":"step","step":"objects","state":"started"}' });
    expect(JSON.parse(got[1].data).state).toBe("succeeded");
  });

  it("gives the same events however the network splits the bytes", () => {
    const whole = parse([stream]);
    for (const size of [1, 2, 3, 7, 64]) {
      const chunks = stream.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? [];
      expect(parse(chunks)).toEqual(whole);
    }
  });

  it("accepts CRLF and CR line ends and joins multi-line data", () => {
    const got = parse(["data: a\r\ndata: b\r\n\r\ndata: c\r\r"]);
    expect(got.map((m) => m.data)).toEqual(["a\nb", "c"]);
  });

  it("ignores comments and events without data", () => {
    expect(parse([": ping\n\nevent: step\n\n"])).toEqual([]);
  });
});
