/**
 * Questions a user asks about Orrery, each with the docs page that answers it (written from the
 * current docs/), and questions the docs cannot answer. The quality test and the bench use them.
 */
export const QUESTIONS: Array<[question: string, page: string]> = [
  ['Why is my job pending?', 'jobs-api.md'],
  ['How do I buy credits?', 'billing.md'],
  ['What happens when my credits run out?', 'billing.md'],
  ['How do I set a budget with alert thresholds?', 'billing.md'],
  ['How do I create a bucket?', 'buckets.md'],
  ['How long does a disk live before it is deleted?', 'disks.md'],
  ['How do I push an image to the registry?', 'images.md'],
  ['How can I see the logs of my job?', 'jobs.md'],
  ['Which columns does the jobs list show?', 'jobs.md'],
  ['How do I install a Jupyter app?', 'apps.md'],
  ['What does the degraded state of an app instance mean?', 'apps.md'],
  ['How do I import an app configuration from a file?', 'apps.md'],
  ['How do I invite someone to my organization?', 'people.md'],
  ['How do I share access to a job with another user?', 'permissions.md'],
  ['What can a job of the process runtime reach?', 'security.md'],
  ['Should I choose the process runtime or the docker runtime?', 'runtimes.md'],
  ['How do I upload files to storage?', 'files.md'],
  ['Which batch YAML features does the flow parser support?', 'flows.md'],
  ['How do I connect an external identity provider?', 'operations.md'],
  ['Where are the health check and the metrics?', 'operations.md'],
  ['How does an administrator add a resource preset?', 'admin.md'],
  ['How do I log in with the apolo CLI?', 'getting-started.md'],
  ['How do I create an account and my first organization?', 'getting-started.md'],
  ['Which input widgets can a template form use?', 'forms.md'],
  ['How do I reach the HTTP port of my job from the browser?', 'jobs-api.md'],
  ['When does an idle app shut down?', 'apps.md'],
];

export const OFF_TOPIC = [
  'What is the capital of France?',
  'Give me a recipe for chocolate cake',
  'Who won the football world cup in 2018?',
  'How do I change the oil in my car?',
  'Write me a poem about the sea',
];
