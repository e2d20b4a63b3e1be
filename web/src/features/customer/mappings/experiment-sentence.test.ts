import { describe, expect, it } from "vitest";
import { chancePercent, experimentSentence } from "./experiment-sentence";

const result = (uplift: number | null, probabilityToBeatControl: number | null, visitors = 500) => ({
  key: "B",
  uplift,
  probabilityToBeatControl,
  visitors,
});

describe("experimentSentence", () => {
  it("says how much better a variant converts, in whole percents, and how likely it is to be better", () => {
    expect(experimentSentence(result(0.1234, 0.9712), "A")).toBe(
      "B converts 12 % better than A; 97 % likely to be better.",
    );
    expect(experimentSentence(result(0.125, 0.5), "A")).toBe(
      "B converts 13 % better than A; 50 % likely to be better.",
    );
  });

  it("says how much worse a variant converts, without a minus sign", () => {
    expect(experimentSentence(result(-0.0789, 0.1), "A")).toBe(
      "B converts 8 % worse than A; 10 % likely to be better.",
    );
  });

  it("calls an uplift that rounds to 0 % as good as the control", () => {
    expect(experimentSentence(result(0.004, 0.52), "A")).toBe("B converts as well as A; 52 % likely to be better.");
    expect(experimentSentence(result(-0.004, 0.48), "Control")).toBe(
      "B converts as well as Control; 48 % likely to be better.",
    );
  });

  it("says there is not enough data while the uplift or the probability is unknown, or nobody saw the variant", () => {
    expect(experimentSentence(result(null, null), "A")).toBe("Not enough data yet.");
    expect(experimentSentence(result(0.2, null), "A")).toBe("Not enough data yet.");
    expect(experimentSentence(result(null, 0.5), "A")).toBe("Not enough data yet.");
    expect(experimentSentence(result(0.2, 0.9, 0), "A")).toBe("Not enough data yet.");
  });

  it("speaks German when asked", () => {
    expect(experimentSentence(result(0.12, 0.97), "A", "de")).toBe(
      "B konvertiert 12 % besser als A; mit 97 % Wahrscheinlichkeit besser.",
    );
    expect(experimentSentence(result(-0.08, 0.1), "A", "de")).toBe(
      "B konvertiert 8 % schlechter als A; mit 10 % Wahrscheinlichkeit besser.",
    );
    expect(experimentSentence(result(0, 0.5), "A", "de")).toBe(
      "B konvertiert so gut wie A; mit 50 % Wahrscheinlichkeit besser.",
    );
    expect(experimentSentence(result(null, null), "A", "de")).toBe("Noch nicht genug Daten.");
  });
});

describe("chancePercent", () => {
  it("rounds to whole percents, but never to a certainty the figures do not give", () => {
    expect(chancePercent(0.974)).toBe(97);
    expect(chancePercent(0.975)).toBe(98);
    expect(chancePercent(0.9996)).toBe(99);
    expect(chancePercent(0.0004)).toBe(1);
    expect(chancePercent(1)).toBe(100);
    expect(chancePercent(0)).toBe(0);
  });
});
