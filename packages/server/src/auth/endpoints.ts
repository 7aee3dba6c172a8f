import type { Config } from '../config.js';

export interface OidcEndpoints {
  authorization: string;
  token: string;
  endSession: string;
}

/**
 * The OAuth endpoints that `GET /config` advertises to the Apolo CLI. Known for the embedded
 * provider; read from the discovery document of an external issuer (once, then kept).
 */
export async function oidcEndpoints(config: Config): Promise<OidcEndpoints> {
  const issuer = config.oidc.issuer;
  if (!config.oidc.external) {
    return {
      authorization: `${issuer}/auth`,
      token: `${issuer}/token`,
      endSession: `${issuer}/session/end`,
    };
  }
  try {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    const doc = (await res.json()) as Record<string, string>;
    return {
      authorization: doc.authorization_endpoint,
      token: doc.token_endpoint,
      endSession: doc.end_session_endpoint ?? `${issuer}/logout`,
    };
  } catch (e) {
    throw new Error(
      `OIDC_ISSUER: cannot read ${issuer}/.well-known/openid-configuration (${(e as Error).message})`,
    );
  }
}
