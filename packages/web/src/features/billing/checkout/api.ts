import type { RedirectUrl, TestCheckout } from '@orrery/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { API, request } from '../../../api/client';

/** The calls of the test checkout page (console page `/billing/checkout/{id}`). */
const path = (id: string) => `${API.billing}/checkouts/${encodeURIComponent(id)}`;

export const useTestCheckout = (id: string) =>
  useQuery({
    queryKey: ['billing', 'checkout', id],
    queryFn: ({ signal }) => request<TestCheckout>(path(id), { signal }),
  });

/** Pays or cancels; the answer is where the buyer goes next. */
export const useCheckoutAction = (id: string) =>
  useMutation({
    mutationFn: async (action: 'pay' | 'cancel') =>
      (await request<RedirectUrl>(`${path(id)}/${action}`, { method: 'POST' })).redirectUrl,
  });
