import pLimit from "p-limit";

/**
 * The one concurrency helper: `fn` over `items`, at most `concurrency` at once (p-limit), results in
 * the order of `items`. A rejection rejects the whole map, as Promise.all does; callers that must go on
 * past a failure catch inside `fn`.
 */
export function mapLimit<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const limit = pLimit(Math.max(1, concurrency));
  return Promise.all(items.map((item, i) => limit(() => fn(item, i))));
}

/** A shared gate: at most `concurrency` of the calls it wraps run at once, the rest wait their turn (p-limit). */
export function limiter(concurrency: number): <R>(fn: () => Promise<R>) => Promise<R> {
  const limit = pLimit(Math.max(1, concurrency));
  return (fn) => limit(fn);
}
