import type { Browser } from 'playwright-core';

export const CHROMIUM: string;
export const CHROMIUM_FLAGS: string[];
export function launch(): Promise<Browser>;
