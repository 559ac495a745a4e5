/// <reference types="vite/client" />
// api-schema.ts must be what openapi-typescript makes of openapi.json, with the options of the
// `gen:types` script, so the page's types are the REST API's (openapi.json is held to the Rust
// code by crates/api/tests/ui_files.rs).
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { expect, it } from "vitest";
import pkg from "../../package.json?raw";
import stored from "./api-schema.ts?raw";

/** The script's `--some-flag`s as openapi-typescript options (`someFlag: true`). */
function flags(script: string): Record<string, boolean> {
  const names = [...script.matchAll(/ --([a-z-]+)/g)].map((m) => m[1].replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
  return Object.fromEntries(names.map((n) => [n, true]));
}

it("reads the generator's flags from its script", () => {
  expect(flags("openapi-typescript in.json --empty-objects-unknown -o out.ts")).toEqual({ emptyObjectsUnknown: true });
});

it("api-schema.ts is generated from the checked-in openapi.json", { timeout: 60_000 }, async () => {
  const script: string = JSON.parse(pkg).scripts["gen:types"];
  const ast = await openapiTS(new URL("./openapi.json", import.meta.url), { ...flags(script), silent: true });
  const generated = (COMMENT_HEADER + astToString(ast)).split("\n");
  const lines = stored.split("\n");
  const first = generated.findIndex((line, i) => line !== lines[i]);
  const at = first >= 0 ? first : generated.length < lines.length ? generated.length : -1;
  const where = `from line ${at + 1}: ${JSON.stringify(lines[at])} should be ${JSON.stringify(generated[at])}`;
  expect(at, `ui/src/lib/api-schema.ts is out of date ${where}; run \`npm run gen:api\` in ui/`).toBe(-1);
});
