import { z } from 'zod';
import { USERNAME, USERNAME_MAX, USERNAME_MESSAGE, USERNAME_MIN } from '@orrery/contract';

export const PASSWORD_MIN = 8;
/** scrypt of a huge input is slow; nobody types more than this. */
export const PASSWORD_MAX = 200;
const NAME_MAX = 100;

export const MESSAGES = {
  nameRequired: 'Enter your name',
  nameTooLong: `Use at most ${NAME_MAX} characters`,
  username: USERNAME_MESSAGE,
  usernameTaken: 'This username is taken',
  email: 'Enter a valid e-mail address',
  emailTaken: 'An account with this e-mail already exists',
  passwordShort: `Use at least ${PASSWORD_MIN} characters`,
  passwordLong: `Use at most ${PASSWORD_MAX} characters`,
  wrongCredentials: 'Wrong email or password',
  tooMany: 'Too many attempts, try again later',
} as const;

export interface SignUpInput {
  name: string;
  username: string;
  email: string;
  password: string;
}

/** Field name → message; `form` is an error about the whole form. */
export type FieldErrors = Partial<Record<keyof SignUpInput | 'form', string>>;

const emailSchema = z.email();

export const normalizeEmail = (email: string) => email.trim();

export function passwordError(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return MESSAGES.passwordShort;
  if (password.length > PASSWORD_MAX) return MESSAGES.passwordLong;
  return undefined;
}

export function emailError(email: string): string | undefined {
  return emailSchema.safeParse(email).success ? undefined : MESSAGES.email;
}

/** The sign-up form's own rules; uniqueness is checked against the database afterwards. */
export function signUpErrors(input: SignUpInput): FieldErrors {
  const errors: FieldErrors = {};
  const name = input.name.trim();
  if (!name) errors.name = MESSAGES.nameRequired;
  else if (name.length > NAME_MAX) errors.name = MESSAGES.nameTooLong;
  const u = input.username;
  if (u.length < USERNAME_MIN || u.length > USERNAME_MAX || !USERNAME.test(u)) {
    errors.username = MESSAGES.username;
  }
  const e = emailError(input.email);
  if (e) errors.email = e;
  const p = passwordError(input.password);
  if (p) errors.password = p;
  return errors;
}

/** Reads a form body field as a string, whatever the client sent. */
export const formString = (body: unknown, key: string): string => {
  const v = (body as Record<string, unknown> | null | undefined)?.[key];
  return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '';
};
