// How every browser test and the bench start Debian's Chromium: headless, no network of its own.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launch = () =>
  chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
