/** Records each upload the page starts; the test plays the network's part. */
export class FakeXhr {
  static all: FakeXhr[] = [];
  upload: { onprogress: ((e: Partial<ProgressEvent>) => void) | null } = { onprogress: null };
  headers: Record<string, string> = {};
  method = '';
  url = '';
  body: unknown = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, target: string) {
    this.method = method;
    this.url = target;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.all.push(this);
  }
  abort() {
    this.onabort?.();
  }
}
