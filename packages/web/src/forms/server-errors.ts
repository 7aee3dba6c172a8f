import { ApiError } from '../api/client';
import type { FormErrors } from './rules';
import type { FormNode } from './schema';

/** Whether a dotted path names an input of the schema (array indexes included). */
export function hasPath(node: FormNode, path: string): boolean {
  if (path === '') return true;
  const [head, ...rest] = path.split('.');
  const tail = rest.join('.');
  switch (node.kind) {
    case 'container': {
      const child = node.children.find((c) => c.name === head);
      return !!child && hasPath(child, tail);
    }
    case 'array':
      return /^\d+$/.test(head) && hasPath(node.item, tail);
    case 'anyOf':
      return node.options.some((o) => hasPath(o, path));
    default:
      return false;
  }
}

/**
 * The server's field errors placed on the form's inputs, the first message of
 * each. `toFormPath` translates a wire path where the form keeps the value elsewhere; paths the
 * form has no input for are left out, and the caller shows the message as a toast instead.
 */
export function serverFieldErrors(
  error: unknown,
  root: FormNode,
  toFormPath: (wirePath: string) => string = (p) => p,
): FormErrors {
  if (!(error instanceof ApiError)) return {};
  const errors: FormErrors = {};
  for (const e of error.fieldErrors) {
    const path = toFormPath(e.path);
    if (hasPath(root, path) && !(path in errors)) errors[path] = e.message;
  }
  return errors;
}
