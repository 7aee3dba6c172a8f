/**
 * Names of organizations, projects, clusters and users. The console accepts letters, digits,
 * spaces and hyphens and normalises them to the platform form
 * `^[a-z0-9](-?[a-z0-9])*$` before sending.
 */
export const CONSOLE_NAME_CHARS = /^[A-Za-z0-9 -]+$/;
export const PLATFORM_NAME = /^[a-z0-9](-?[a-z0-9])*$/;
export const NAME_MIN = 3;
export const NAME_MAX = 255;
export const USERNAME = /^[a-z0-9](-?[a-z0-9])*$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 40;

export const normalizeName = (raw: string): string =>
  raw.trim().toLowerCase().replace(/\s+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '');

export const PLATFORM_NAME_MESSAGE = `Use ${NAME_MIN} to ${NAME_MAX} lowercase letters, digits and single hyphens, starting and ending with a letter or digit`;
export const USERNAME_MESSAGE = `Use ${USERNAME_MIN} to ${USERNAME_MAX} lowercase letters, digits and single hyphens`;
