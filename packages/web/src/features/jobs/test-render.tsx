import type { JobWire } from '@orrery/contract';
import { Route, Routes } from 'react-router';
import { stubFetch, type CannedResponse } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import JobsPage from './JobsPage';
import { JOB_ID, ROUTE_QUERY, signedIn, stubWebSocket, textStream } from './test-fixtures';

export const GET = `/api/v1/jobs/${JOB_ID}`;

/**
 * The jobs area at `/jobs/JOB_ID<tab>` with the job (or a canned failure) answered, a fake
 * WebSocket, and every `…/log` request answered by a stream the test writes to.
 */
export function renderJob(job: JobWire | CannedResponse, tab = '', extra: CannedResponse[] = []) {
  const answer: CannedResponse = 'url' in job ? job : { url: GET, body: job };
  const fetch = stubFetch([answer, ...extra]);
  const json = fetch.fetchMock.getMockImplementation()!;
  const logs: {
    url: string;
    headers: Record<string, string>;
    stream: ReturnType<typeof textStream>;
  }[] = [];
  fetch.fetchMock.mockImplementation(async (input, init = {}) => {
    const url = String(input);
    if (!/\/log(\?|$)/.test(url)) return json(input, init);
    const stream = textStream();
    logs.push({ url, headers: { ...(init.headers as Record<string, string>) }, stream });
    return stream.response();
  });
  const sockets = stubWebSocket();
  const view = renderSignedIn(
    <Routes>
      <Route path="/jobs/*" element={<JobsPage />} />
    </Routes>,
    { ...signedIn(), route: `/jobs/${JOB_ID}${tab}?${ROUTE_QUERY}` },
  );
  return { ...fetch, ...view, sockets, logs };
}
