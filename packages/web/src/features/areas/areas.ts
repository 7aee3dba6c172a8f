/**
 * Areas of console-shell §2 that later issues build. Their links already exist in the popovers,
 * so each route answers with a page that names the area and says it is not available yet.
 */
export interface PendingArea {
  path: string;
  title: string;
  needsCluster: boolean;
  systemRoleOnly: boolean;
}

export const PENDING_AREAS: PendingArea[] = [
  { path: '/org-billing', title: 'Billing', needsCluster: false, systemRoleOnly: false },
];

export const AREA_TEXTS = {
  notAvailable: 'This area is not available yet in this version of the console.',
  notFound: 'Page not found',
  notFoundHint: 'There is nothing at this address.',
  goHome: 'Go to the home page',
};
