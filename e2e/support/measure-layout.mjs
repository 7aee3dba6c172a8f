// Used by `npm run bench`: time from navigation to the main layout rendered, for a signed-in user.
import { launch } from './chromium.mjs';

/**
 * Debian's Chromium with a page signed in through the real login page, terms accepted; the caller
 * closes the browser.
 */
export async function openSignedIn(base, { email, password, token }, pageOptions = {}) {
  const me = await (
    await fetch(`${base}/api/v1/config`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  if (!me.authorized) throw new Error('bench token not accepted');
  const username = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).identity;
  await fetch(`${base}/api/v1/users/${username}/profile`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ terms_accepted: true }),
  });
  const browser = await launch();
  try {
    const page = await browser.newPage(pageOptions);
    await page.goto(base);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('banner').waitFor({ timeout: 30000 });
    return { browser, page };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

export async function measureLayout(base, { email, password, token, org, project }, runs = 5) {
  const { browser, page } = await openSignedIn(base, { email, password, token });
  try {
    const url = `${base}/?org=${org}&cluster=default&project=${project}`;
    const times = [];
    for (let i = 0; i < runs; i++) {
      const t0 = Date.now();
      await page.goto(url);
      await page.getByRole('banner').getByText(project).first().waitFor({ timeout: 30000 });
      times.push(Date.now() - t0);
    }
    return times;
  } finally {
    await browser.close();
  }
}
