import { vi } from 'vitest';

/**
 * What the page hands the browser to download: jsdom saves nothing, so the blobs made into
 * object URLs and the links clicked (their `download` names) are kept for the test to read.
 */
export function captureDownloads() {
  const blobs: Blob[] = [];
  const clicked: HTMLAnchorElement[] = [];
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (b: Blob) => (blobs.push(b), 'blob:download'),
      revokeObjectURL: () => {},
    }),
  );
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this);
  });
  return { blobs, clicked, restore: () => click.mockRestore() };
}
