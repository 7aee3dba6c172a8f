export declare const DOCKERD: string;
export declare const BUSYBOX: string;
export declare const canRunDockerd: boolean;

export interface Dockerd {
  /** `unix://…/docker.sock` */
  host: string;
  /** The environment for the docker CLI: DOCKER_HOST, a private DOCKER_CONFIG, no BuildKit. */
  env: NodeJS.ProcessEnv;
  /** Runs the docker CLI against this daemon; throws with its stderr on failure. */
  docker(args: string[], input?: string | Buffer): string;
  stop(): Promise<void>;
}

export declare function startDockerd(): Promise<Dockerd>;
export declare function importBusybox(dockerd: Dockerd, tag: string): void;
