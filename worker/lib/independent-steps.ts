/** @module Runs steps that do not depend on each other: a failing one is logged and the others run all the same. */
export type Step = [name: string, run: () => Promise<unknown>];

export async function runIndependentSteps(steps: Step[]): Promise<void> {
  for (const [name, run] of steps) {
    try {
      await run();
    } catch (err) {
      console.error(`${name} failed`, err);
    }
  }
}
