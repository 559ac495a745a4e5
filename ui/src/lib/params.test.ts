import { describe, expect, it } from "vitest";
import { MASK, isParamProblem, paramMap, paramProblems, paramRows, paramsWords, sameParams, sourceWords } from "./params";

describe("template parameters", () => {
  it("reads a record's parameters as rows in key order, a stored secret masked", () => {
    const rows = paramRows({ tz: "UTC", repo_password: { value: MASK, secret: true } });
    expect(rows).toEqual([
      { key: "repo_password", value: MASK, secret: true },
      { key: "tz", value: "UTC", secret: false },
    ]);
    expect(paramRows(null)).toEqual([]);
  });

  it("sends a masked secret back as it came, so the service keeps its value", () => {
    const rows = paramRows({ repo_password: { value: MASK, secret: true }, tz: "UTC" });
    rows[1].value = "Europe/Berlin";
    rows.push({ key: "", value: "", secret: false });
    expect(paramMap(rows)).toEqual({ repo_password: { value: MASK, secret: true }, tz: "Europe/Berlin" });
    expect(sameParams(rows, paramRows({ tz: "Europe/Berlin", repo_password: { value: MASK, secret: true } }))).toBe(true);
    expect(sameParams(rows, paramRows({ tz: "UTC" }))).toBe(false);
  });

  it("names a key templates cannot write, a key given twice, and a value without a key", () => {
    const p = paramProblems([
      { key: "Repo-URL", value: "x", secret: false },
      { key: "tz", value: "UTC", secret: false },
      { key: "tz", value: "CET", secret: false },
      { key: "", value: "orphan", secret: false },
      { key: "", value: "", secret: false },
    ]);
    expect([...p.keys()]).toEqual([0, 2, 3]);
    expect(p.get(0)).toContain("not a parameter name");
    expect(p.get(2)).toBe("tz is also row 2");
    // A stored secret made plain would keep the stars as its value: it must be typed again.
    expect(paramProblems([{ key: "token", value: MASK, secret: false }]).get(0)).toContain("type its value again");
    expect(paramProblems([{ key: "token", value: MASK, secret: true }]).size).toBe(0);
  });

  it("tells a parameter's problem from the others and counts a row's parameters", () => {
    expect(isParamProblem({ field: "params.timezone" })).toBe(true);
    expect(isParamProblem({ field: "params" })).toBe(true);
    expect(isParamProblem({ field: "paramsx" })).toBe(false);
    expect(paramsWords([{ key: "tz", value: "UTC", secret: false }, { key: " ", value: "", secret: false }])).toBe(" · 1 parameter");
    expect(paramsWords([])).toBe("");
  });

  it("says where a host's parameter came from", () => {
    expect(sourceWords({ key: "tz", value: "UTC", secret: false, from: "server_group", record: "pod1" })).toBe("server group pod1");
    expect(sourceWords({ key: "tz", value: "UTC", secret: false, from: "default" })).toBe("the defaults (Settings)");
  });
});
