import { z } from 'zod';

export const PAGE_DEFAULT = 1;
export const SIZE_DEFAULT = 50;
export const SIZE_MAX = 500;

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(PAGE_DEFAULT),
  size: z.coerce.number().int().min(1).max(SIZE_MAX).default(SIZE_DEFAULT),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), pages: z.number().int() });
export type Paged<T> = { items: T[]; total: number; pages: number };

export const pageOf = <T>(items: T[], total: number, q: PageQuery): Paged<T> => ({
  items,
  total,
  pages: Math.max(1, Math.ceil(total / q.size)),
});
