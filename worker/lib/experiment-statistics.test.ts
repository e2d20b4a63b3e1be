import { describe, expect, it } from "vitest";
import { SRM_P_THRESHOLD } from "#contract/experiments";
import { experimentResults, probabilityToBeat, relativeUplift, sampleRatioMismatch } from "./experiment-statistics";

const arm = (conversions: number, visitors: number) => ({ visitors, conversions });

describe("probabilityToBeat", () => {
  // References by numerical integration with scipy 1.17.1, for control c/n and variant c'/n':
  //   a1, b1, a2, b2 = 1 + c, 1 + n - c, 1 + c', 1 + n' - c'
  //   scipy.integrate.quad(lambda x: beta.pdf(x, a2, b2) * beta.cdf(x, a1, b1), 0, 1,
  //                        epsabs=1e-14, epsrel=1e-12, limit=500, points=...)[0]
  // with `points` at the two rates where the posteriors are too narrow for quad to find unaided.
  it.each([
    ["small counts", arm(10, 100), arm(15, 100), 0.8532837899339664],
    ["medium counts", arm(200, 1000), arm(240, 1000), 0.9845373460239725],
    ["equal rates", arm(100, 1000), arm(100, 1000), 0.5],
    ["equal small rates", arm(3, 10), arm(3, 10), 0.5],
    ["no conversions on either side", arm(0, 100), arm(0, 100), 0.5],
    ["no visitors at all", arm(0, 0), arm(0, 0), 0.5],
    ["a control without conversions", arm(0, 100), arm(5, 100), 0.9855234959554189],
    ["a variant without conversions", arm(10, 100), arm(0, 100), 0.00036633327855500045],
    ["a far worse variant", arm(50, 100), arm(10, 100), 1.28740331801702e-10],
    // Rare conversions among many visitors: quad over [0, 1] misses the posteriors' peak even with points (it
    // answers 0.4198), so over [0, 0.002] (20 standard deviations past both means), points=[0.0003, 0.00045];
    // 10^7 draws of each posterior (numpy) agree: 0.9576.
    ["rare conversions", arm(30, 100_000), arm(45, 100_000), 0.9577064454934114],
    // points=[0.99, 0.995]: almost everyone converts, so the sum runs over the non-conversions.
    ["almost all converting, variant better", arm(990, 1000), arm(995, 1000), 0.8958612843824394],
    ["almost all converting, variant worse", arm(995, 1000), arm(990, 1000), 0.1041387156175412],
  ])("is exact (1e-6) for %s", (_, control, variant, expected) => {
    expect(probabilityToBeat(control, variant)).toBeCloseTo(expected, 6);
  });

  it.each([
    // points=[0.1, 0.104]
    ["large counts", arm(5000, 50_000), arm(5200, 50_000), 0.9816772067684467],
    ["large counts, variant worse", arm(5200, 50_000), arm(5000, 50_000), 0.018322793231555827],
    // points=[0.1, 0.103]
    ["large counts, a smaller difference", arm(3000, 30_000), arm(3090, 30_000), 0.8881201109124236],
  ])("approximates (1e-3) for %s", (_, control, variant, expected) => {
    expect(probabilityToBeat(control, variant)).toBeCloseTo(expected, 3);
  });

  it("stays in [0, 1] and adds up to 1 with its mirror", () => {
    for (const [control, variant] of [
      [arm(0, 1_000_000), arm(1_000_000, 1_000_000)],
      [arm(1_000_000, 1_000_000), arm(0, 1_000_000)],
      [arm(123, 456), arm(234, 567)],
      [arm(40_000, 100_000), arm(41_000, 100_000)],
    ] as const) {
      const p = probabilityToBeat(control, variant);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
      expect(p + probabilityToBeat(variant, control)).toBeCloseTo(1, 9);
    }
  });
});

describe("relativeUplift", () => {
  // References with numpy, for control cc/nc and variant cv/nv:
  //   pc, pv = cc/nc, cv/nv; r = pv/pc; se = np.sqrt((1-pv)/(nv*pv) + (1-pc)/(nc*pc))
  //   (r - 1, np.exp(np.log(r) - 1.959964*se) - 1, np.exp(np.log(r) + 1.959964*se) - 1)
  it.each([
    ["small counts", arm(10, 100), arm(15, 100), 0.5, -0.29188159277067927, 2.1774347016393083],
    ["medium counts", arm(200, 1000), arm(240, 1000), 0.2, 0.016533710104833288, 0.41657869845899675],
    ["large counts", arm(5000, 50_000), arm(5200, 50_000), 0.04, 0.002435421600895049, 0.07897224768123046],
    ["a worse variant", arm(240, 1000), arm(200, 1000), -1 / 6, -0.294073812427199, -0.0162647927368077],
  ])("gives the uplift and its 95-percent interval for %s", (_, control, variant, uplift, low, high) => {
    const result = relativeUplift(control, variant);
    expect(result?.uplift).toBeCloseTo(uplift, 12);
    expect(result?.ci95[0]).toBeCloseTo(low, 12);
    expect(result?.ci95[1]).toBeCloseTo(high, 12);
  });

  it("is null while either rate is 0 or undefined", () => {
    expect(relativeUplift(arm(0, 100), arm(5, 100))).toBeNull();
    expect(relativeUplift(arm(5, 100), arm(0, 100))).toBeNull();
    expect(relativeUplift(arm(0, 0), arm(5, 100))).toBeNull();
    expect(relativeUplift(arm(5, 100), arm(0, 0))).toBeNull();
  });
});

describe("sampleRatioMismatch", () => {
  // References: scipy.stats.chisquare(observed, [sum(observed) * w / 100 for w in weights]).pvalue (scipy 1.17.1).
  it.each([
    ["an exact split", [5000, 5000], [50, 50], 1, true],
    ["a balanced split", [5000, 5050], [50, 50], 0.6179522266795625, true],
    ["an unbalanced split", [5000, 5400], [50, 50], 8.769942375590228e-5, false],
    ["three variants in line", [1000, 520, 480], [50, 25, 25], 0.4493289641172217, true],
    ["three variants off", [1000, 560, 440], [50, 25, 25], 0.0007465858083766791, false],
    ["three variants with the control short", [4000, 2000, 2200], [50, 25, 25], 0.0006641030858712745, false],
    ["five variants", [205, 198, 190, 210, 197], [20, 20, 20, 20, 20], 0.8797422925591886, true],
  ])("tests %s", (_, visitors, weights, pValue, ok) => {
    const check = sampleRatioMismatch(visitors, weights);
    expect(check.pValue).toBeCloseTo(pValue, 9);
    expect(check.ok).toBe(ok);
  });

  it("flags the unbalanced split under the threshold", () => {
    expect(sampleRatioMismatch([5000, 5400], [50, 50]).pValue).toBeLessThan(SRM_P_THRESHOLD);
  });

  it("has nothing to test without visitors", () => {
    expect(sampleRatioMismatch([0, 0, 0], [50, 25, 25])).toEqual({ pValue: 1, ok: true });
  });

  it("answers a p-value of ~0, not NaN, for a wholly one-sided split", () => {
    expect(sampleRatioMismatch([1000, 0], [50, 50])).toEqual({ pValue: expect.closeTo(0, 12), ok: false });
  });
});

describe("experimentResults", () => {
  const conversions = new Map([
    ["control/signup", 200],
    ["control/purchase", 10],
    ["b/signup", 240],
    ["b/purchase", 15],
    ["c/signup", 0],
  ]);
  const results = experimentResults({
    variants: [
      { key: "control", weight: 50, visitors: 1000 },
      { key: "b", weight: 25, visitors: 1000 },
      { key: "c", weight: 25, visitors: 0 },
    ],
    goals: ["signup", "purchase"],
    conversions: (key, goal) => conversions.get(`${key}/${goal}`) ?? 0,
  });

  it("lists each variant in order, and each goal in order within it", () => {
    expect(results.variants.map((v) => `${v.key}/${v.goal}`)).toEqual([
      "control/signup",
      "control/purchase",
      "b/signup",
      "b/purchase",
      "c/signup",
      "c/purchase",
    ]);
  });

  it("gives the control its rate and no comparison", () => {
    expect(results.variants[0]).toEqual({
      key: "control",
      goal: "signup",
      visitors: 1000,
      conversions: 200,
      rate: 0.2,
      uplift: null,
      upliftCi95: null,
      probabilityToBeatControl: null,
      topAddressVisitorShare: 0,
      topAddressConversionShare: 0,
    });
    expect(results.concentrated).toBe(false);
  });

  it("warns when one address brought a large share of a variant's visitors or conversions, not a small one", () => {
    const withTop = (top: (key: string, goal: string | null) => number) =>
      experimentResults({
        variants: [
          { key: "control", weight: 50, visitors: 100 },
          { key: "b", weight: 50, visitors: 100 },
        ],
        goals: ["signup"],
        conversions: (key) => (key === "b" ? 40 : 10),
        topAddress: top,
      });
    // One address brought 20 of b's 40 conversions: half of them.
    const forged = withTop((key, goal) => (key === "b" && goal === "signup" ? 20 : 1));
    expect(forged.concentrated).toBe(true);
    expect(forged.variants[1]).toMatchObject({ topAddressConversionShare: 0.5, topAddressVisitorShare: 0.01 });
    // One address with 20 of b's 100 visitors is as telling.
    expect(withTop((key, goal) => (key === "b" && goal === null ? 20 : 0)).concentrated).toBe(true);
    // 3 of 10: a share, but too few to say anything.
    expect(withTop((key, goal) => (key === "control" && goal === "signup" ? 3 : 0)).concentrated).toBe(false);
    // 4 of 100 visitors: a small share.
    expect(withTop(() => 4).concentrated).toBe(false);
  });

  it("compares a variant with the control on the same goal", () => {
    const signup = results.variants[2]!;
    expect(signup).toMatchObject({ visitors: 1000, conversions: 240, rate: 0.24 });
    expect(signup.uplift).toBeCloseTo(0.2, 12);
    expect(signup.upliftCi95![0]).toBeCloseTo(0.016533710104833288, 12);
    expect(signup.upliftCi95![1]).toBeCloseTo(0.41657869845899675, 12);
    expect(signup.probabilityToBeatControl).toBeCloseTo(0.9845373460239725, 6);
    // quad(lambda x: beta.pdf(x, 16, 986) * beta.cdf(x, 11, 991), 0, 1, epsabs=1e-14, epsrel=1e-12, limit=500)[0]
    expect(results.variants[3]!.probabilityToBeatControl).toBeCloseTo(0.8381219860933394, 6);
  });

  it("answers a rate of 0 and no comparison for a variant without visitors", () => {
    expect(results.variants[4]).toMatchObject({
      visitors: 0,
      conversions: 0,
      rate: 0,
      uplift: null,
      upliftCi95: null,
      probabilityToBeatControl: null,
    });
  });

  it("checks the split of visitors against the weights", () => {
    expect(results.srm.ok).toBe(false);
    expect(results.srm.pValue).toBeLessThan(SRM_P_THRESHOLD);
  });
});
