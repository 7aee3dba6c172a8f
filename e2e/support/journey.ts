import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launch, screenshot, watchErrors } from './browser.js';
import { removeDataDir, startServer, type RunningServer } from './server.js';
import { adminProject } from './session.js';

export interface Journey {
  server: RunningServer;
  /** The administrator's token; the organization `acme` and project `vision` exist. */
  token: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Errors the page threw or logged; a journey ends by expecting none. */
  errors: string[];
}

/**
 * The frame of a browser journey: a real server process (with `env`), the administrator's
 * `acme`/`vision` project, Debian's Chromium with one watched page, a screenshot of the page when
 * a step fails, and everything stopped and removed afterwards. `bind` hands the parts to the
 * test's own variables.
 */
export function useJourney(
  name: string,
  bind: (j: Journey) => void,
  opts: {
    env?: () => Promise<Record<string, string>> | Record<string, string>;
    context?: BrowserContextOptions;
    /** Runs once the browser exists, before the page is made (e.g. a second account). */
    prepare?: (j: Omit<Journey, 'context' | 'page' | 'errors'>) => Promise<void>;
  } = {},
) {
  let j: Partial<Journey> = {};
  beforeAll(async () => {
    const server = await startServer((await opts.env?.()) ?? {});
    j.server = server;
    const token = await adminProject(server, 'acme', 'vision');
    const browser = await launch();
    j = { server, token, browser };
    await opts.prepare?.({ server, token, browser });
    const context = await browser.newContext(opts.context);
    const page = await context.newPage();
    j = { ...j, context, page, errors: watchErrors(page) };
    bind(j as Journey);
  });
  afterAll(async () => {
    await j.browser?.close();
    await j.server?.stop();
    if (j.server) removeDataDir(j.server.dataDir);
  });
  afterEach(async (ctx) => {
    if (j.page && ctx.task.result?.state === 'fail')
      await screenshot(j.page, `failed-${name}-${ctx.task.name.slice(0, 40)}`);
  });
}
