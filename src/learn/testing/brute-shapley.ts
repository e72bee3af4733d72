/**
 * Exact Shapley values by enumerating every subset of players: φ_i = Σ_{S ⊆ N∖{i}} |S|!(M−|S|−1)!/M! ·
 * (v(S ∪ {i}) − v(S)). `value(mask)` is the game on a bit mask of players. For tests only (2^M evaluations).
 */
export function bruteShapley(m: number, value: (mask: number) => number): Float64Array {
  const v = new Float64Array(1 << m);
  for (let mask = 0; mask < 1 << m; mask++) v[mask] = value(mask);
  const fact = [1];
  for (let i = 1; i <= m; i++) fact.push(fact[i - 1] * i);
  const phi = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    for (let mask = 0; mask < 1 << m; mask++) {
      if (mask & (1 << i)) continue;
      let s = 0;
      for (let k = mask; k; k &= k - 1) s++;
      phi[i] += ((fact[s] * fact[m - s - 1]) / fact[m]) * (v[mask | (1 << i)] - v[mask]);
    }
  }
  return phi;
}
