import type { Camel, ImageDetailsWire, ImageListWire, ProjectPlace } from '@orrery/contract';
import { useQuery } from '@tanstack/react-query';
import { API, request } from './client';

/**
 * Images: the project's repositories behind Orrery's registry, read through
 * `/api/v1/images` with the console's Bearer token.
 */
export type ImageList = Camel<ImageListWire>;
export type ImageRepo = ImageList['images'][number];
export type ImageDetails = Camel<ImageDetailsWire>;
export type ImageTag = ImageDetails['tags'][number];

const IMAGES = `${API.core}/images`;
const scope = (p: ProjectPlace) => ({
  cluster_name: p.clusterName,
  org_name: p.orgName,
  project_name: p.projectName,
});

export const imageKeys = {
  list: (p: ProjectPlace) => ['images', p.clusterName, p.orgName, p.projectName] as const,
  details: (p: ProjectPlace, name: string) => [...imageKeys.list(p), 'tags', name] as const,
};

export const listImages = (p: ProjectPlace, signal?: AbortSignal) =>
  request<ImageListWire>(IMAGES, { query: scope(p), signal });

export const imageDetails = (p: ProjectPlace, name: string, signal?: AbortSignal) =>
  request<ImageDetailsWire>(`${IMAGES}/tags`, { query: { ...scope(p), name }, signal });

export const useImages = (p: ProjectPlace | null) =>
  useQuery({
    queryKey: p ? imageKeys.list(p) : ['images', 'none'],
    queryFn: ({ signal }) => listImages(p!, signal),
    enabled: !!p,
    refetchOnWindowFocus: true,
  });

export const useImageDetails = (p: ProjectPlace, name: string | null) =>
  useQuery({
    queryKey: imageKeys.details(p, name ?? ''),
    queryFn: ({ signal }) => imageDetails(p, name!, signal),
    enabled: !!name,
  });
