import { useCallback, useEffect, useRef, useState } from 'react';
import {
  COPILOT_RECONNECT_MS,
  COPILOT_WS_PATH,
  COPILOT_WS_PROTOCOL,
  CopilotServerMessage,
} from '@orrery/contract';
import { BEARER_PROTOCOL_PREFIX } from '../../api/jobs';

/** The chat connection's states; `error`: no socket could be made at all. */
export type ConnectionState = 'connecting' | 'open' | 'closing' | 'closed' | 'error';

/** `ws(s)://<origin>/api/v1/copilot/ws?key=<conversation key>`. */
export function copilotUrl(key: string, origin = window.location.origin) {
  const url = new URL(COPILOT_WS_PATH, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('key', key);
  return url.toString();
}

/** Browsers cannot set headers on a WebSocket: the token rides as a second sub-protocol. */
export const copilotProtocols = (token: string | null | undefined) =>
  token ? [COPILOT_WS_PROTOCOL, `${BEARER_PROTOCOL_PREFIX}${token}`] : [COPILOT_WS_PROTOCOL];

/** A key that names this page session's conversation; `randomUUID` needs a secure origin. */
export function conversationKey() {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export interface CopilotSocket {
  state: ConnectionState;
  /** Sends one JSON message; false when the socket is not open. */
  send: (message: unknown) => boolean;
  /** Connects now rather than at the next 15 s attempt. */
  connect: () => void;
}

/**
 * The copilot socket of one page session. It opens once `enabled` (the panel was opened) and stays
 * open while the panel is closed, so an answer still arrives; while closed it retries every 15 s.
 */
export function useCopilotSocket(
  key: string,
  token: string | null,
  enabled: boolean,
  onMessage: (message: CopilotServerMessage) => void,
  onLost: () => void,
): CopilotSocket {
  const [state, setState] = useState<ConnectionState>('closed');
  const socket = useRef<WebSocket | null>(null);
  const handlers = useRef({ onMessage, onLost });
  // A renewed token must not reconnect the socket; it is read when the next one opens.
  const tokenRef = useRef(token);
  useEffect(() => {
    handlers.current = { onMessage, onLost };
    tokenRef.current = token;
  });

  const connect = useCallback(() => {
    const current = socket.current;
    if (current && current.readyState <= WebSocket.OPEN) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(copilotUrl(key), copilotProtocols(tokenRef.current));
    } catch {
      setState('error');
      return;
    }
    socket.current = ws;
    setState('connecting');
    let failed = false;
    ws.onopen = () => setState('open');
    ws.onerror = () => {
      failed = true;
      setState('error');
    };
    ws.onclose = () => {
      if (socket.current !== ws) return;
      socket.current = null;
      setState(failed ? 'error' : 'closed');
      handlers.current.onLost();
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      let parsed;
      try {
        parsed = CopilotServerMessage.safeParse(JSON.parse(event.data));
      } catch {
        return;
      }
      if (parsed.success) handlers.current.onMessage(parsed.data);
    };
  }, [key]);

  useEffect(() => {
    if (enabled) connect();
  }, [enabled, connect]);

  /** The client's own close: Closing... from the call until the socket's close event. */
  const close = useCallback(() => {
    const ws = socket.current;
    if (!ws || ws.readyState >= WebSocket.CLOSING) return;
    setState('closing');
    ws.close();
  }, []);

  // Offline, the socket is dead, but a browser may take minutes to notice: it is closed now, so
  // the panel says so and offers Resend; back online, the next one opens at once (the server
  // keeps an answer in flight for the same key meanwhile).
  useEffect(() => {
    if (!enabled) return;
    window.addEventListener('offline', close);
    window.addEventListener('online', connect);
    return () => {
      window.removeEventListener('offline', close);
      window.removeEventListener('online', connect);
    };
  }, [enabled, close, connect]);

  const down = state === 'closed' || state === 'error';
  useEffect(() => {
    if (!enabled || !down) return;
    const timer = setInterval(connect, COPILOT_RECONNECT_MS);
    return () => clearInterval(timer);
  }, [enabled, down, connect]);

  // Unmounted, nothing shows the state: the socket is dropped without Closing...
  useEffect(
    () => () => {
      const ws = socket.current;
      socket.current = null;
      ws?.close();
    },
    [],
  );

  const send = useCallback((message: unknown) => {
    const ws = socket.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }, []);

  return { state, send, connect };
}
