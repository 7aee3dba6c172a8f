import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { buildNode } from './schema';
import { hasPath, serverFieldErrors } from './server-errors';

const root = buildNode({
  type: 'object',
  properties: {
    name: { type: 'string' },
    http: {
      anyOf: [{ type: 'null' }, { type: 'object', properties: { port: { type: 'integer' } } }],
    },
    env: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' } } },
    },
  },
});

const apiError = (errors: { path: string; message: string }[]) =>
  new ApiError(400, { error: 'validation', message: errors[0]?.message ?? 'bad', errors });

describe('server field errors', () => {
  it('knows the paths of the form', () => {
    expect(hasPath(root, 'name')).toBe(true);
    expect(hasPath(root, 'http.port')).toBe(true);
    expect(hasPath(root, 'env.3.name')).toBe(true);
    expect(hasPath(root, 'env.x.name')).toBe(false);
    expect(hasPath(root, 'cluster_name')).toBe(false);
  });

  it('puts the first message of each path on its field and leaves unknown paths out', () => {
    const e = apiError([
      { path: 'name', message: 'Bad name' },
      { path: 'name', message: 'Second' },
      { path: 'http.port', message: 'Bad port' },
      { path: 'org_name', message: 'Nope' },
    ]);
    expect(serverFieldErrors(e, root)).toEqual({ name: 'Bad name', 'http.port': 'Bad port' });
  });

  it('translates wire paths the form keeps elsewhere', () => {
    const e = apiError([{ path: 'secret_env.TOKEN', message: 'Bad' }]);
    expect(serverFieldErrors(e, root, () => 'env.0.name')).toEqual({ 'env.0.name': 'Bad' });
  });

  it('has nothing for errors that are not the server’s', () => {
    expect(serverFieldErrors(new Error('offline'), root)).toEqual({});
  });
});
