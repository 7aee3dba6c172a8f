import { useSession } from '../../app/session/session-context';

/**
 * The signed-in user's bearer token: the same one the API client's token source returns
 * (SessionProvider registers it), needed where a header cannot be set by `request` — open-in-tab
 * links, previews and uploads with progress.
 */
export const useStorageToken = () => useSession().oidcUser?.access_token ?? null;
