/**
 * "Did you mean" suggestions: the closest candidate by optimal string
 * alignment distance (Levenshtein plus adjacent transpositions, so
 * `clockchian` is one edit from `clockchain`), or a case-only difference.
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  return closestMatches(word, candidates)[0];
}

/**
 * The closest candidate only when no other is as close: what a fix may
 * write without asking (`Z13` is as close to `Z1` as to `Z3` and `Z11`).
 */
export function onlyClosestMatch(word: string, candidates: readonly string[]): string | undefined {
  const matches = closestMatches(word, candidates);
  return matches.length === 1 ? matches[0] : undefined;
}

/** Every candidate at the smallest distance, in the candidates' order; a case-only difference beats any edit. */
export function closestMatches(word: string, candidates: readonly string[]): string[] {
  const lower = word.toLowerCase();
  const sameLetters = candidates.filter((c) => c !== word && c.toLowerCase() === lower);
  if (sameLetters.length > 0) return sameLetters;
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string[] = [];
  let bestDistance = limit;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - word.length) > limit) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance === 0 || distance > bestDistance) continue;
    if (distance < bestDistance) {
      best = [];
      bestDistance = distance;
    }
    best.push(candidate);
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = value;
    }
  }
  return d[rows * cols - 1]!;
}
