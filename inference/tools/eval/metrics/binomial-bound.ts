/**
 * The one-sided 95 % upper confidence bound on an error rate after `errors` in `trials`
 * (Clopper-Pearson: the rate p at which seeing `errors` or fewer has probability 5 %). With no
 * errors it is 1 - 0.05^(1/n), about 3/n (the "rule of three"): 0 of 200 still allows 1.5 %.
 */
export function upperBound95(errors: number, trials: number): number {
  if (trials === 0) return 1;
  if (errors >= trials) return 1;
  let low = errors / trials;
  let high = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (binomialCdf(errors, trials, mid) > 0.05) low = mid;
    else high = mid;
  }
  return high;
}

/** P(X <= k) for X ~ Binomial(n, p), summed in log space so large n does not underflow. */
function binomialCdf(k: number, n: number, p: number): number {
  let logTerm = n * Math.log1p(-p);
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i) + Math.log(p) - Math.log1p(-p);
    sum += Math.exp(logTerm);
  }
  return sum;
}
