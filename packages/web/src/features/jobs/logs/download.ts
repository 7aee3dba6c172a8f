/** Saves lines as a text file (each ending in a newline) through a temporary object URL (no server round trip). */
export function downloadText(fileName: string, lines: string[]) {
  const text = lines.length ? `${lines.join('\n')}\n` : '';
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click has started the download; the URL is not needed after this tick.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
