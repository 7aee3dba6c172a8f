import { BatchError, type FlowContextInput } from './index.js';

/** The place and start of a bake, as the engine gives them to the parser in the tests. */
export const ctx = (params: Record<string, string> = {}): FlowContextInput => ({
  flowId: 'train',
  projectId: 'demo_flow',
  title: 'Demo',
  cluster: 'default',
  org: 'acme',
  project: 'vision',
  owner: 'alice',
  params,
});

/** The error a call is refused with; a call that is not refused fails the test. */
export function refusal(fn: () => unknown): BatchError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BatchError) return e;
    throw e;
  }
  throw new Error('not refused');
}

/** A minimal batch flow, as `apolo-flow` users write one. */
export const THREE = `kind: batch
params:
  greeting: hello
tasks:
  - id: first
    image: busybox:latest
    cmd: sh -c "echo ::set-output name=word::\${{ params.greeting }}"
  - id: left
    needs: [first]
    image: busybox:latest
    cmd: sh -c "echo left got \${{ needs.first.outputs.word }}"
  - id: right
    needs: [first]
    image: busybox:latest
    cmd: sh -c "echo right got \${{ needs.first.outputs.word }}"
`;
