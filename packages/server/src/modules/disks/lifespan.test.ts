import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenantServer } from '../../test/fixtures.js';
import { reapExpiredDisks } from './reaper.js';
import {
  assertDiskWrite,
  deleteDisk,
  diskVolumePath,
  DiskHolders,
  markDiskUsed,
} from './service.js';
import { diskById } from './store.js';

const Q = 'org_name=acme&project_name=vision';

describe('disk usage and lifespans', () => {
  let s: TestServer;
  let owner: TestUser;
  // The server's own: the test stands in for a workload that uses a disk.
  const disks = new DiskHolders();
  const create = async (body: Record<string, unknown>) => {
    const r = await call(s, 'POST', '/api/v1/disk', owner, {
      org_name: 'acme',
      project_name: 'vision',
      ...body,
    });
    expect(r.status).toBe(201);
    return r.body as { id: string; created_at: string };
  };

  tenantServer((x) => ({ s, owner } = x), {}, { disks });

  it('reports the bytes of files written into the disk', async () => {
    const d = await create({ storage: 1000, name: 'measured' });
    const dir = await diskVolumePath(s.ctx, d.id);
    writeFileSync(join(dir, 'a.bin'), Buffer.alloc(300));
    const one = await call(s, 'GET', `/api/v1/disk/${d.id}?${Q}`, owner);
    expect(one.body.used_bytes).toBe(300);
    const list = await call(s, 'GET', `/api/v1/disk?${Q}`, owner);
    expect(list.body.find((x: { id: string }) => x.id === d.id).used_bytes).toBe(300);
  });

  it('refuses a write beyond the disk’s storage', async () => {
    const d = await create({ storage: 1000, name: 'limited' });
    writeFileSync(join(await diskVolumePath(s.ctx, d.id), 'b.bin'), Buffer.alloc(600));
    await expect(assertDiskWrite(s.ctx, disks.measures, d.id, 400)).resolves.toBeUndefined();
    await expect(assertDiskWrite(s.ctx, disks.measures, d.id, 401)).rejects.toThrow(
      'Not enough space on disk limited: 400 bytes free',
    );
  });

  it('deletes a disk once its lifespan has passed since creation or last use', async () => {
    const expiring = await create({ storage: 1000, name: 'expiring', life_span: 60 });
    const used = await create({ storage: 1000, name: 'used', life_span: 60 });
    const kept = await create({ storage: 1000, name: 'kept', life_span: null });
    const created = new Date(expiring.created_at).getTime();
    const dir = await diskVolumePath(s.ctx, expiring.id);

    expect(await reapExpiredDisks(s.ctx, disks, new Date(created + 30_000))).toEqual([]);
    await markDiskUsed(s.ctx, used.id, new Date(created + 50_000));
    const deleted = await reapExpiredDisks(s.ctx, disks, new Date(created + 61_000));
    expect(deleted).toEqual([expiring.id]);
    expect(existsSync(dir)).toBe(false);
    expect(await diskById(s.ctx.db, expiring.id)).toBeNull();
    expect(await diskById(s.ctx.db, kept.id)).not.toBeNull();
    expect((await diskById(s.ctx.db, used.id))?.lastUsage?.getTime()).toBe(created + 50_000);
    expect(await reapExpiredDisks(s.ctx, disks, new Date(created + 111_000))).toEqual([used.id]);
  });

  it('keeps a disk in use: no delete (409), no expiry', async () => {
    const d = await create({ storage: 1000, name: 'mounted', life_span: 1 });
    disks.inUse = async (id) => id === d.id;
    const del = await call(s, 'DELETE', `/api/v1/disk/mounted?${Q}`, owner);
    expect(del.status).toBe(409);
    expect(await reapExpiredDisks(s.ctx, disks, new Date(Date.now() + 10_000))).toEqual([]);
    disks.inUse = async () => false;
    const row = (await diskById(s.ctx.db, d.id))!;
    await deleteDisk(s.ctx, disks, row);
    expect(await diskById(s.ctx.db, d.id)).toBeNull();
  });
});
