import { describe, expect, it } from "vitest";
import { heldOut } from "./experiment-assignment";

const VISITORS = 100_000;

describe('a holdout\'s share (docs/audiences.md, "Holdout")', () => {
  it.each([10, 50])("holds out %i percent of 100,000 simulated visitor ids, within 2 points", (share) => {
    let held = 0;
    for (let i = 0; i < VISITORS; i++) {
      if (heldOut(`visitor-${i.toString(36)}-${(i * 2654435761) >>> 0}`, "3f9a1c2e7b6d4a10", share)) held++;
    }
    expect(Math.abs((100 * held) / VISITORS - share)).toBeLessThanOrEqual(2);
  });

  it("holds out nobody at 0 and keeps a visitor in one arm; another run places them independently", () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => `visitor-${i}`);
    expect(ids.some((id) => heldOut(id, "run-a", 0))).toBe(false);
    const inA = ids.map((id) => heldOut(id, "run-a", 50));
    const inB = ids.map((id) => heldOut(id, "run-b", 50));
    expect(ids.map((id) => heldOut(id, "run-a", 50))).toEqual(inA);
    const same = inA.filter((held, i) => held === inB[i]).length;
    expect(same).toBeGreaterThan(400);
    expect(same).toBeLessThan(600);
  });
});
