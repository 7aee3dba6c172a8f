// What a signed-in user calls most, as an ordinary member (not the system administrator, whose
// access needs no lookup): a user of organization `bench` and writer of project `bench`, with one
// secret, so every route below walks the real membership and permission path.
import { client } from './server.mjs';

const PLACE = 'cluster_name=default&org_name=bench&project_name=bench';

/** The signed-in routes of the throughput and sustained-load sections. */
export const SIGNED_IN_ROUTES = [
  { name: 'config', path: '/api/v1/config' },
  { name: 'jobs list', path: `/api/v1/jobs?${PLACE}&reverse=1&limit=50` },
  { name: 'storage listing', path: '/api/v1/storage/bench/bench?op=LISTSTATUS' },
  { name: 'secrets list', path: `/api/v1/secrets?${PLACE}` },
];

const MEMBER = { name: 'bench-member', email: 'bench-member@orrery.local' };

/** Makes (once per database) the member and returns a client with its token. */
export async function benchMember(server) {
  const admin = server.api;
  const exists = (e) => {
    if (!/\b409\b/.test(e.message)) throw e;
  };
  await admin.post('/apis/admin/v1/users', MEMBER).catch(exists);
  await admin
    .post('/apis/admin/v1/orgs/bench/users', { user_name: MEMBER.name, role: 'user' })
    .catch(exists);
  await admin
    .post('/apis/admin/v1/clusters/default/orgs/bench/projects/bench/users', {
      user_name: MEMBER.name,
      role: 'writer',
    })
    .catch(exists);
  await admin
    .post('/api/v1/secrets', {
      org_name: 'bench',
      project_name: 'bench',
      key: 'BENCH_KEY',
      value: Buffer.from('bench').toString('base64'),
    })
    .catch(exists);
  const member = client(server.base, server.tokenFor(MEMBER.email));
  // Every route must answer 200 for this member, or the figures would measure refusals.
  for (const r of SIGNED_IN_ROUTES) await member.get(r.path);
  return member;
}
