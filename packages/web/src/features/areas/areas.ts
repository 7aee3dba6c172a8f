/** Texts of the page shown at an address the console does not know. */
export const AREA_TEXTS = {
  notFound: 'Page not found',
  notFoundHint: 'There is nothing at this address.',
  goHome: 'Go to the home page',
};
