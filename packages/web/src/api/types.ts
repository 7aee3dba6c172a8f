import type {
  Camel,
  ClusterWire,
  OrgWire,
  PlatformConfigWire,
  ProjectWire,
  UserWire,
} from '@orrery/contract';

/** camelCase views of the contract's wire types, as the HTTP client returns them. */
export type PlatformConfig = Camel<PlatformConfigWire>;
export type Branding = PlatformConfig['branding'];
export type Cluster = Camel<ClusterWire>;
export type User = Camel<UserWire>;
export type UserOrg = NonNullable<User['orgs']>[number];
export type UserCluster = NonNullable<User['clusters']>[number];
export type ConfigProject = NonNullable<PlatformConfig['projects']>[number];
export type Org = Camel<OrgWire>;
export type Project = Camel<ProjectWire>;
