import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { world } from '../../test/fixtures';
import { stubFetch } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import { ContextLink } from './ContextLink';
import { usePlatformContext } from './platform-context';
import { CONTEXT_STORAGE_KEY } from './storage';

function Probe() {
  const { names, select } = usePlatformContext();
  return (
    <>
      <output>{`${names.org}/${names.cluster}/${names.project}`}</output>
      <ContextLink to="/project-settings/users">People</ContextLink>
      <button onClick={() => select({ cluster: 'gpu' })}>to gpu</button>
      <button onClick={() => select({ org: 'beta' })}>to beta</button>
    </>
  );
}

const renderAt = (route: string) => {
  const { user, sessionConfig } = world();
  stubFetch([]);
  return renderSignedIn(<Probe />, { user, sessionConfig, route });
};
const current = () => screen.getByRole('status').textContent;
const peopleHref = () => screen.getByText('People').getAttribute('href');

describe('platform context', () => {
  it('uses the query parameters and keeps them on links', () => {
    renderAt('/?org=acme&cluster=gpu&project=ops');
    expect(current()).toBe('acme/gpu/ops');
    expect(peopleHref()).toBe('/project-settings/users?org=acme&cluster=gpu&project=ops');
  });

  it('uses the saved choice without query parameters and writes it into the address', () => {
    window.localStorage.setItem(
      CONTEXT_STORAGE_KEY,
      JSON.stringify({ org: 'acme', cluster: 'default', project: 'nlp' }),
    );
    const { url } = renderAt('/');
    expect(current()).toBe('acme/default/nlp');
    expect(url()).toBe('/?org=acme&cluster=default&project=nlp');
  });

  it('falls back to the first available and saves the choice', () => {
    renderAt('/?org=unknown');
    expect(current()).toBe('acme/default/vision');
    expect(JSON.parse(window.localStorage.getItem(CONTEXT_STORAGE_KEY) ?? '')).toEqual({
      org: 'acme',
      cluster: 'default',
      project: 'vision',
    });
  });

  it('keeps pickers and query parameters in sync when switching', async () => {
    const { url } = renderAt('/jobs?org=acme&cluster=default&project=nlp');
    await act(async () => fireEvent.click(screen.getByText('to gpu')));
    expect(current()).toBe('acme/gpu/ops');
    expect(url()).toBe('/jobs?org=acme&cluster=gpu&project=ops');
    await act(async () => fireEvent.click(screen.getByText('to beta')));
    expect(current()).toBe('beta/default/web');
    expect(peopleHref()).toBe('/project-settings/users?org=beta&cluster=default&project=web');
  });
});
