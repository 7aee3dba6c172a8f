import type { BrandingWire } from '@orrery/contract';
import {
  PASSWORD_MIN,
  type FieldErrors,
  type SignUpInput,
} from '../../../modules/accounts/rules.js';
import {
  alert,
  field,
  form,
  hidden,
  join,
  layout,
  link,
  links,
  note,
  paragraph,
  raw,
  type Html,
} from './layout.js';

/** Where the pages of one sign-in interaction live (see interactions.ts). */
export const interactionPaths = (uid: string) => {
  const base = `/oidc/interaction/${encodeURIComponent(uid)}`;
  return {
    start: base,
    login: `${base}/login`,
    signup: `${base}/signup`,
    forgot: `/oidc/forgot?interaction=${encodeURIComponent(uid)}`,
  };
};

export function loginPage(
  brand: BrandingWire,
  uid: string,
  opts: { email?: string; error?: string; notice?: string } = {},
): string {
  const p = interactionPaths(uid);
  return layout(
    brand,
    `Sign in to ${brand.title}`,
    join([
      opts.notice ? note(opts.notice) : null,
      alert(opts.error),
      form(
        p.login,
        [
          field({
            label: 'Email',
            name: 'email',
            type: 'email',
            value: opts.email,
            autocomplete: 'username',
            autofocus: !opts.email,
          }),
          field({
            label: 'Password',
            name: 'password',
            type: 'password',
            autocomplete: 'current-password',
            autofocus: !!opts.email,
          }),
        ],
        'Sign in',
      ),
      links(link(p.signup, 'Create an account'), link(p.forgot, 'Forgot password?')),
    ]),
  );
}

export function signupPage(
  brand: BrandingWire,
  uid: string,
  opts: { values?: Partial<SignUpInput>; errors?: FieldErrors } = {},
): string {
  const p = interactionPaths(uid);
  const v = opts.values ?? {};
  const e = opts.errors ?? {};
  return layout(
    brand,
    'Create your account',
    join([
      alert(e.form),
      form(
        p.signup,
        [
          field({
            label: 'Name',
            name: 'name',
            value: v.name,
            error: e.name,
            autocomplete: 'name',
          }),
          field({ label: 'Username', name: 'username', value: v.username, error: e.username }),
          field({
            label: 'Email',
            name: 'email',
            type: 'email',
            value: v.email,
            error: e.email,
            autocomplete: 'email',
          }),
          field({
            label: 'Password',
            name: 'password',
            type: 'password',
            error: e.password,
            autocomplete: 'new-password',
            hint: `At least ${PASSWORD_MIN} characters`,
          }),
        ],
        'Create account',
      ),
      links(raw('<span>Already have an account?</span>'), link(p.login, 'Sign in')),
    ]),
  );
}

export function forgotPage(
  brand: BrandingWire,
  opts: { interaction?: string; sent?: boolean; email?: string; error?: string },
): string {
  const back = opts.interaction ? interactionPaths(opts.interaction).login : null;
  const backLink = back ? links(link(back, 'Back to sign in')) : null;
  if (opts.sent) {
    return layout(
      brand,
      'Check your e-mail',
      join([
        note(
          'If an account exists for this address, we have sent it a link to reset the password. ' +
            'The link is valid for one hour.',
        ),
        backLink,
      ]),
    );
  }
  const action = opts.interaction
    ? `/oidc/forgot?interaction=${encodeURIComponent(opts.interaction)}`
    : '/oidc/forgot';
  return layout(
    brand,
    'Reset your password',
    join([
      paragraph('Enter the e-mail address of your account and we will send you a reset link.'),
      form(
        action,
        [
          field({
            label: 'Email',
            name: 'email',
            type: 'email',
            value: opts.email,
            error: opts.error,
            autocomplete: 'email',
            autofocus: true,
          }),
        ],
        'Send reset link',
      ),
      backLink,
    ]),
  );
}

export function resetPage(brand: BrandingWire, token: string, error?: string): string {
  return layout(
    brand,
    'Choose a new password',
    form(
      '/oidc/reset',
      [
        hidden('token', token),
        field({
          label: 'New password',
          name: 'password',
          type: 'password',
          error,
          autocomplete: 'new-password',
          autofocus: true,
          hint: `At least ${PASSWORD_MIN} characters`,
        }),
      ],
      'Set password',
    ),
  );
}

/** A page with a heading, a sentence and an optional way on. */
export function messagePage(
  brand: BrandingWire,
  heading: string,
  text: string,
  next?: { href: string; label: string },
): string {
  return layout(
    brand,
    heading,
    join([paragraph(text), next ? links(link(next.href, next.label)) : null]),
  );
}

/** oidc-provider's `logoutSource`: `form` is its hidden form that carries the request. */
export function logoutPage(
  brand: BrandingWire,
  providerForm: string,
  autoSubmit: string | null = null,
): string {
  return layout(
    brand,
    `Sign out of ${brand.title}?`,
    join([
      raw(providerForm),
      raw(
        '<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>' +
          '<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>',
      ),
      autoSubmit ? raw(`<script>${autoSubmit}</script>`) : null,
    ]),
  );
}

export function signedOutPage(brand: BrandingWire, home: string): string {
  return messagePage(brand, 'Signed out', `You have signed out of ${brand.title}.`, {
    href: home,
    label: `Back to ${brand.title}`,
  });
}

export type { Html };
