/** @module For the wrappers' own tests: expect one refusal, and take it so that the test does not fail on it. */
import { expect } from "vitest";
import { takeRefusals } from "./limits";

/** `run` must reject (directly, or through a library that wraps the error, as Drizzle does) with `text`. */
export async function expectRefused(run: () => Promise<unknown>, text: string) {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected a refusal").toBeInstanceOf(Error);
  expect(takeRefusals().map((e) => e.message)).toEqual([expect.stringContaining(text)]);
}
