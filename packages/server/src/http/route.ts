import { ErrorBody } from '@orrery/contract';

/** Error responses every authenticated route documents in OpenAPI. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
} as const;

/** Where the administrators' API lives: shared by every module with admin routes. */
export const ADMIN_API = '/apis/admin/v1';
