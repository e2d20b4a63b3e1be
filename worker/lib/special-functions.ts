/**
 * @module The special functions behind the experiments' statistics (statistics.ts): log-gamma, log-beta, the
 * regularized upper incomplete gamma function and the normal distribution function, in double precision.
 */

// Lanczos' approximation with g = 7 and 9 coefficients: about 15 significant digits for x > 0.
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

const EPSILON = 1e-15;
const TINY = 1e-300;
const ITERATIONS_MAX = 10_000;

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return HALF_LOG_TWO_PI + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** ln B(a, b) for a, b > 0. */
export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** ln(e^-x x^a / Γ(a)): the factor both expansions of the incomplete gamma function share. */
function logPrefactor(a: number, x: number): number {
  return -x + a * Math.log(x) - logGamma(a);
}

/** P(a, x) by its series, which converges quickly for x < a + 1 (Numerical Recipes, 3rd ed., §6.2, gser). */
function lowerSeries(a: number, x: number): number {
  let denominator = a;
  let term = 1 / a;
  let sum = term;
  for (let i = 0; i < ITERATIONS_MAX && Math.abs(term) >= Math.abs(sum) * EPSILON; i++) {
    denominator++;
    term *= x / denominator;
    sum += term;
  }
  return sum * Math.exp(logPrefactor(a, x));
}

/** Q(a, x) by its continued fraction (modified Lentz), which converges quickly for x ≥ a + 1 (§6.2, gcf). */
function upperContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= ITERATIONS_MAX; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(logPrefactor(a, x)) * h;
}

/** The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x ≥ 0. */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - lowerSeries(a, x) : upperContinuedFraction(a, x);
}

/** Φ(z), the standard normal distribution function: erfc(t) = Q(1/2, t²) keeps both tails accurate. */
export function normalCdf(z: number): number {
  const tail = 0.5 * gammaQ(0.5, (z * z) / 2);
  return z < 0 ? tail : 1 - tail;
}
