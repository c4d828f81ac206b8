/**
 * The answers of one threshold round that pass `verify` (a node's proof against its own Kᵢ), by node
 * index, and the indices of those that do not: a failed check, an unknown node (`verify` gives
 * undefined), or a node that answers twice (its second answer, and any after a failure, are refused).
 */
export function verifiedAnswers<T>(
  answers: readonly { index: number; evaluation: Uint8Array }[],
  verify: (index: number, evaluation: Uint8Array) => T | undefined,
): { good: Map<number, T>; rejected: number[] } {
  const rejected: number[] = [];
  const good = new Map<number, T>();
  for (const { index, evaluation } of answers) {
    const fresh = !good.has(index) && !rejected.includes(index);
    const verified = fresh ? verify(index, evaluation) : undefined;
    if (verified) good.set(index, verified);
    else rejected.push(index);
  }
  return { good, rejected };
}
