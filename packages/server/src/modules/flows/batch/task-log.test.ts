import { describe, expect, it } from 'vitest';
import { parseTaskLog } from './index.js';

describe('task log commands', () => {
  it('reads outputs and state, the last value of a name winning', () => {
    const log = [
      'starting',
      '::set-output name=model::s3://bucket/model.pt',
      '::save-state name=step::10',
      '::set-output name=score::0.5',
      '::set-output name=score::0.9',
      '::set-output name=empty::',
      '::set-output name=colons::a::b',
      'done',
    ].join('\n');
    expect(parseTaskLog(log)).toEqual({
      outputs: { model: 's3://bucket/model.pt', score: '0.9', empty: '', colons: 'a::b' },
      state: { step: '10' },
    });
  });

  it('ignores commands between ::stop-commands::TOKEN and ::TOKEN::', () => {
    const log = [
      '::set-output name=before::1',
      '::stop-commands::abc123',
      '::set-output name=inside::untrusted',
      '::save-state name=inside::untrusted',
      '::abc12::',
      '::set-output name=still::inside',
      '::abc123::',
      '::set-output name=after::2',
    ].join('\n');
    expect(parseTaskLog(log)).toEqual({ outputs: { before: '1', after: '2' }, state: {} });
  });

  it('tolerates CRLF line ends and ignores lines that only look like commands', () => {
    const log =
      '::set-output name=a::x\r\n  ::set-output name=indented::no\r\necho ::set-output name=b::no\r\n' +
      '::set-output a::no\r\n::save-state name=s::y\r\n';
    expect(parseTaskLog(log)).toEqual({ outputs: { a: 'x' }, state: { s: 'y' } });
  });

  it('keeps a name such as __proto__ as an ordinary output', () => {
    const { outputs } = parseTaskLog('::set-output name=__proto__::x\n::set-output name=k::v');
    expect(Object.keys(outputs)).toEqual(['__proto__', 'k']);
    expect(outputs.k).toBe('v');
  });
});
