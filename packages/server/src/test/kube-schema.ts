import * as client from '@kubernetes/client-node';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';

/**
 * Validation of Kubernetes objects as they go on the wire, against the official OpenAPI schema
 * of Kubernetes 1.32 as shipped in npm packages (nothing is fetched):
 * - `kubernetes-models` 4.5.1 validates required fields, types, enums and formats (its
 *   validators are compiled from that schema);
 * - that schema allows unknown fields, so every field is also looked up in the attribute maps
 *   `@kubernetes/client-node` generated from the API's OpenAPI: an unknown field (a typo that
 *   the API server would drop or refuse) fails too.
 */
// Each model's constructor types its own fields; the objects checked here are the wire's.
const MODELS: Record<string, { new (data: never): { validate(): void } }> = {
  'v1/Pod': Pod,
  'v1/Service': Service,
  'v1/Secret': Secret,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/ServiceAccount': ServiceAccount,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'apps/v1/Deployment': Deployment,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding,
};

type Attr = { name: string; baseName: string; type: string };
type Generated = { getAttributeTypeMap(): Attr[] };

const PRIMITIVES = new Set(['string', 'number', 'boolean', 'any', 'Date', 'IntOrString', 'object']);

/** Fields not in the type `type` (a client-node class name), as paths. */
function unknownFields(value: unknown, type: string, path: string): string[] {
  if (value === null || value === undefined) return [];
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    return Array.isArray(value)
      ? value.flatMap((v, i) => unknownFields(v, array[1]!, `${path}[${i}]`))
      : [`${path}: not a list`];
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    return Object.entries(value as object).flatMap(([k, v]) =>
      unknownFields(v, map[1]!, `${path}.${k}`),
    );
  }
  if (PRIMITIVES.has(type)) return [];
  const model = (client as unknown as Record<string, Generated | undefined>)[type];
  if (!model?.getAttributeTypeMap) return [];
  const attrs = model.getAttributeTypeMap();
  return Object.entries(value as object).flatMap(([k, v]) => {
    const attr = attrs.find((a) => a.baseName === k);
    return attr ? unknownFields(v, attr.type, `${path}.${k}`) : [`${path}.${k}: unknown field`];
  });
}

const clientType = (apiVersion: string, kind: string) => {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  // The few groups whose objects client-node names by group: rbac (V1Role…) needs none.
  void group;
  return `${version!.charAt(0).toUpperCase()}${version!.slice(1)}${kind}`;
};

/** Throws with every problem of a wire-form object (an API request body, a manifest). */
export function assertValidObject(object: { apiVersion?: string; kind?: string }) {
  const key = `${object.apiVersion}/${object.kind}`;
  const Model = MODELS[key];
  if (!Model) throw new Error(`No schema for ${key}`);
  new Model(object as never).validate();
  const unknown = unknownFields(object, clientType(object.apiVersion!, object.kind!), key);
  if (unknown.length > 0) throw new Error(`${key}: ${unknown.join(', ')}`);
}
