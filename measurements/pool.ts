/** Runs `worker` over `items` with at most `jobs` at a time; stops starting new ones once `signal` aborts. */
export async function runPool<T, R>(
  items: readonly T[],
  jobs: number,
  worker: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async (): Promise<void> => {
    while (failure === null && signal?.aborted !== true && next < items.length) {
      const index = next++;
      try {
        results[index] = await worker(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const lanes = Math.max(1, Math.min(jobs, items.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
  signal?.throwIfAborted();
  return results;
}
