// What an automation engineer's TypeScript does with a job: read its result by its kind, with
// the types openapi-typescript 7.13 generates from the served document (`./schema`, written next
// to this file by scripts/client-test.sh). `tsc --noEmit` compiles it there; it stops compiling
// when the document regresses: a job kind that is a plain string again, a job-result member the
// generator turns into `never` (or `unknown`), a result that is no longer the three results.
import type { components } from "./schema";

type S = components["schemas"];
type Job = S["Job"];
type DeployResult = S["DeployResult"];
type Images = S["Images"];
type ImportResult = S["ImportResult"];

/** Compiles only when `T` is `true`. */
type Assert<T extends true> = T;
type IsNever<T> = [T] extends [never] ? true : false;
type IsAny<T> = 0 extends 1 & T ? true : false;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** A real object type: not `never`, `any` or `unknown`, and with named fields (an empty object
 * schema becomes `Record<string, never>`, whose keys are any string). */
type Model<T> =
  IsNever<T> extends true ? false
  : IsAny<T> extends true ? false
  : unknown extends T ? false
  : IsNever<keyof T> extends true ? false
  : string extends keyof T ? false
  : true;

// A `never` member vanishes from a union, so each member is checked by name, then the union.
export type ResultMembersAreModels = [
  Assert<Model<DeployResult>>,
  Assert<Model<Images>>,
  Assert<Model<ImportResult>>,
  Assert<Equal<NonNullable<Job["result"]>, DeployResult | Images | ImportResult>>,
  Assert<Model<Job>>,
];

// The kinds are a closed set (an enum in the document), so a switch over them is exhaustive.
export type KindsAreClosed = Assert<
  Equal<Job["kind"], "images" | "deploy" | "vmedia" | "undeploy" | "iso_import" | "iso_fetch">
>;

/** One line about a finished job, read from its typed result. */
export function describe(job: Job): string {
  const result = job.result;
  if (result == null) return `${job.kind}: ${job.state}`;
  switch (job.kind) {
    case "deploy":
    case "vmedia":
    case "undeploy": {
      const r = result as DeployResult;
      const failed = r.failed_hosts?.length ?? 0;
      return `${job.kind} of ${r.server_group} (${r.os}): ${r.objects.length} objects, ${failed} hosts failed`;
    }
    case "images": {
      const r = result as Images;
      return `images: ${r.images.length} host images, ${r.boot_isos.length} boot ISOs, ${r.trees.length} trees`;
    }
    case "iso_import":
    case "iso_fetch": {
      const r = result as ImportResult;
      return `${r.file}: ${r.bytes} bytes${r.mapped ? `, mapped to ${r.mapped}` : ""}`;
    }
    default: {
      const unknownKind: never = job.kind;
      return unknownKind;
    }
  }
}
