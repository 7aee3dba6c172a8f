import { describe, expect, it } from 'vitest';
import { wire } from '../test/fixtures';
import { stubFetch } from '../test/fetch';
import { ApiError, request, setTokenSource } from './client';

describe('HTTP client', () => {
  it('sends the browser marker, credentials, JSON and the Bearer token, in snake_case', async () => {
    const { calls } = stubFetch([
      { method: 'POST', url: '/api/v1/projects', status: 201, body: wire.project('p', 'o', 'c') },
    ]);
    setTokenSource(() => 'tok');
    const project = await request('/api/v1/projects', {
      method: 'POST',
      body: { orgName: 'o', clusterName: 'c', defaultRole: 'writer' },
    });
    setTokenSource(() => null);
    expect(calls[0].headers).toMatchObject({
      'X-Requested-With': 'orrery-console',
      'Content-Type': 'application/json',
      Authorization: 'Bearer tok',
    });
    expect(calls[0].credentials).toBe('include');
    expect(calls[0].body).toEqual({ org_name: 'o', cluster_name: 'c', default_role: 'writer' });
    expect(project).toMatchObject({ orgName: 'o', clusterName: 'c', defaultRole: 'writer' });
  });

  it('sends no token on anonymous calls and repeats array query parameters', async () => {
    const { calls } = stubFetch([{ url: /^\/api\/v1\/config/, body: wire.config() }]);
    setTokenSource(() => 'tok');
    await request('/api/v1/config', { anonymous: true, query: { include: ['a', 'b'] } });
    setTokenSource(() => null);
    expect(calls[0].url).toBe('/api/v1/config?include=a&include=b');
    expect(calls[0].headers.Authorization).toBeUndefined();
  });

  it('rejects with an ApiError carrying the status and the body', async () => {
    const body = wire.error({
      error: 'validation',
      message: 'Invalid',
      errors: [{ path: 'name', message: 'Bad name' }],
    });
    stubFetch([{ method: 'POST', url: '/api/v1/orgs', status: 400, body }]);
    const error = (await request('/api/v1/orgs', { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.body).toEqual(body);
    expect(error.fieldErrors[0].message).toBe('Bad name');
  });

  it('can be aborted', async () => {
    stubFetch([]);
    const controller = new AbortController();
    controller.abort();
    const fetchWithSignal = fetch as unknown as { mock: { calls: [string, RequestInit][] } };
    await request('/api/v1/x', { signal: controller.signal }).catch(() => undefined);
    expect(fetchWithSignal.mock.calls[0][1].signal?.aborted).toBe(true);
  });
});
