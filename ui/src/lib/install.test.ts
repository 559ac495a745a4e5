import { describe, expect, it } from "vitest";
import { mediaText } from "./install";

describe("media an install used", () => {
  it("read as used by that install, with its time, and ask for new images", () => {
    const t = mediaText({ state: "used", built_at: "2026-11-26T16:00:00Z", used_at: "2026-11-26T16:24:00Z", files: [] });
    expect(t).toMatch(/^used by the install of /);
    expect(t).toContain("a new install needs new images");
    expect(t).not.toContain("stale");
  });
});
