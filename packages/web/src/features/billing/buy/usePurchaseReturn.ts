import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { notifyError, notifySuccess } from '../../../ui/notify';
import { BILLING_TEXTS } from '../texts';
import { BUY_CREDITS, BUY_STATUS } from './return-urls';

/**
 * Back from a checkout, the outcome is told once and its parameters leave the
 * address (a reload must not tell it again). Balances are read again: a paid purchase may
 * already be credited.
 */
export function usePurchaseReturn() {
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  // A purchase leaves the page (the checkout is elsewhere), so one return per mount: if the
  // parameters come back (another writer of the address raced this one) they are only removed.
  const told = useRef(false);
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const status = params.get(BUY_STATUS);
    if (!status) return;
    if (!told.current) {
      const credits = params.get(BUY_CREDITS) ?? '';
      if (status === 'success') notifySuccess(BILLING_TEXTS.buy.succeeded(credits));
      else notifyError(BILLING_TEXTS.buy.failed);
      void client.invalidateQueries({ queryKey: ['billing'] });
    }
    told.current = true;
    params.delete(BUY_STATUS);
    params.delete(BUY_CREDITS);
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
  }, [location, navigate, client]);
}
