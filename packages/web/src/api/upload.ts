import { ApiError, BROWSER_MARKER } from './client';

export interface UploadOptions {
  /** The bearer token, from the same session the client's token source reads. */
  token: string | null | undefined;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * PUT of one file to `url` with its own content type (files and bucket objects). XMLHttpRequest
 * rather than `fetch` because only it reports upload progress over HTTP/1.1. Headers are the
 * client's: the browser marker and the bearer token. Rejects with an ApiError like `request`,
 * or an AbortError.
 */
export function putFile(
  url: string,
  file: Blob,
  { token, onProgress, signal }: UploadOptions,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const abortError = () => new DOMException('Upload cancelled', 'AbortError');
    if (signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader(BROWSER_MARKER.name, BROWSER_MARKER.value);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let body: ApiError['body'] = null;
      try {
        body = JSON.parse(xhr.responseText) as ApiError['body'];
      } catch {
        body = xhr.responseText ? { message: xhr.responseText } : null;
      }
      reject(new ApiError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, null));
    xhr.onabort = () => reject(abortError());
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
