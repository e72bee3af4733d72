/**
 * Ensemble weights from validation errors (AIIO's "average" merge made concrete): w_m ∝ 1 / RMSE_m², the
 * inverse-variance weights that minimise the error of a weighted mean of independent unbiased predictors.
 * Weights sum to 1.
 */
export function ensembleWeights(validationRmse: readonly number[]): { weights: number[]; rule: string } {
  const inv = validationRmse.map((e) => (Number.isFinite(e) && e > 0 ? 1 / (e * e) : 0));
  const total = inv.reduce((a, b) => a + b, 0);
  const weights = total > 0 ? inv.map((v) => v / total) : validationRmse.map(() => 1 / validationRmse.length);
  return { weights, rule: 'w ∝ 1/RMSE² (validation RMSE in log10(1+y))' };
}

/**
 * Per-row "closest" merge: the member whose prediction is nearest to `reference` (the measured value when known,
 * else the weighted-average prediction) gets weight 1, the rest 0. Ties go to the earlier member.
 */
export function closestWeights(predictions: readonly Float64Array[], reference: Float64Array, row: number): number[] {
  let bi = 0;
  let bd = Infinity;
  predictions.forEach((p, i) => {
    const d = Math.abs(p[row] - reference[row]);
    if (d < bd) {
      bd = d;
      bi = i;
    }
  });
  return predictions.map((_, i) => (i === bi ? 1 : 0));
}
