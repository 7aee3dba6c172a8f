import type { Browser } from 'playwright-core';
import { linkFromOutbox, type RunningServer } from './server.js';
import { send, signUpElsewhere, tokenFor, type NewAccount } from './session.js';

/** A reader of the project `acme/vision`: sees everything in it, changes nothing. */
export const READER: NewAccount = {
  name: 'Rita Reader',
  username: 'rita',
  email: 'rita@example.test',
  password: 'rita-password-1',
};
/** A user of the organization `acme` who is in none of its projects. */
export const ORG_USER: NewAccount = {
  name: 'Olga Orguser',
  username: 'olga',
  email: 'olga@example.test',
  password: 'olga-password-1',
};

const PLACE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };

/** An account made through the sign-up page, verified through its mail, terms accepted. */
async function account(browser: Browser, server: RunningServer, who: NewAccount) {
  await signUpElsewhere(browser, server, who);
  const verify = await browser.newPage();
  await verify.goto(linkFromOutbox(server.dataDir, who.email, '/oidc/verify'));
  await verify.close();
  await send(
    server,
    await tokenFor(server, who.email),
    'PUT',
    `/api/v1/users/${who.username}/profile`,
    {
      terms_accepted: true,
    },
  );
}

/**
 * The world of the roles walk, through the API as the administrator (`token`): in `acme/vision`
 * a running job, a disk, a secret, a bucket and a file in a folder; the reader in the project,
 * the organization user in the organization only. Returns the job's id.
 */
export async function seedRolesWorld(browser: Browser, server: RunningServer, token: string) {
  const api = (method: string, path: string, body?: unknown) =>
    send(server, token, method, path, body);
  await account(browser, server, READER);
  await account(browser, server, ORG_USER);
  for (const who of [READER, ORG_USER])
    await api('POST', '/apis/admin/v1/orgs/acme/users', { user_name: who.username, role: 'user' });
  await api('POST', '/apis/admin/v1/clusters/default/orgs/acme/projects/vision/users', {
    user_name: READER.username,
    role: 'reader',
  });
  const job = (await api('POST', '/api/v1/jobs?from_preset', {
    ...PLACE,
    preset_name: 'cpu-small',
    name: 'long-sleep',
    image: 'busybox:latest',
    command: 'sleep 900',
  })) as { id: string };
  await api('POST', '/api/v1/disk', { ...PLACE, storage: 1e9, name: 'scratch' });
  await api('POST', '/api/v1/secrets', { ...PLACE, key: 'API_KEY', value: btoa('s3cret') });
  await api('POST', '/api/v1/buckets/buckets', { ...PLACE, name: 'datasets' });
  await api('PUT', '/api/v1/storage/acme/vision/reports?op=MKDIRS');
  await api('PUT', '/api/v1/storage/acme/vision/reports/summary.txt?op=CREATE', 'all good\n');
  return job.id;
}
