/**
 * `make`'s answer, made on the first call and shared by the later ones: for what a start can do
 * without (a library loaded on first use). A failure is not kept, so the next call tries again.
 */
export function lazily<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((e: unknown) => {
      made = undefined;
      throw e;
    }));
}
