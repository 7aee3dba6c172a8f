import { useCallback, useEffect, useRef, useState } from 'react';
import type { CopilotAnswer, CopilotQuery, CopilotServerMessage } from '@orrery/contract';
import { notifyError } from '../../ui/notify';
import { useSession } from '../../app/session/session-context';
import { useOptionalPlatformContext } from '../../app/context/platform-context';
import { conversationKey, useCopilotSocket } from './connection';
import type { CopilotSettings } from './settings';
import { ASSISTANT_TEXTS as T } from './texts';

/** A chat message; an answer keeps its citations, plans and engine. */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: 'sending' | 'sent' | 'error';
  answer?: CopilotAnswer;
}

/** The top bar chat button's indicator. */
export type IndicatorState = 'empty' | 'loading' | 'loaded';

/** The contract keeps at most 50 earlier turns. */
const HISTORY_LIMIT = 50;

let nextId = 0;
const newId = () => `m${++nextId}`;

const withStatus =
  (ids: (string | undefined)[], status: ChatMessage['status']) => (prev: ChatMessage[]) =>
    prev.map((m) => (ids.includes(m.id) ? { ...m, status } : m));

function historyOf(messages: ChatMessage[]): CopilotQuery['conversation_history'] {
  return messages
    .filter((m) => m.status === 'sent')
    .slice(-HISTORY_LIMIT)
    .map((m) => ({ role: m.role, content: m.content }));
}

/**
 * The conversation of this page session: lives in the top bar, so it is kept
 * while the panel is closed. Messages go out in order and the server answers them in order, so
 * the oldest message in flight is the one a progress, response or error is about. The server
 * keeps what it could not deliver for the same key, so an answer may come after a reconnection.
 */
export function useCopilot(settings: CopilotSettings, panelOpen: boolean) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [waiting, setWaiting] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const [unseen, setUnseen] = useState(false);
  const [used, setUsed] = useState(false);
  const [key] = useState(conversationKey);
  const inFlight = useRef<string[]>([]);
  /** Messages typed while the socket was down: they go out when it opens. */
  const queued = useRef<string[]>([]);
  const messagesRef = useRef(messages);
  const token = useSession().oidcUser?.access_token ?? null;
  const names = useOptionalPlatformContext()?.names;
  // The socket's handlers and the next query read the latest of these without reconnecting.
  const latest = useRef({ panelOpen, names, settings });
  useEffect(() => {
    latest.current = { panelOpen, names, settings };
    messagesRef.current = messages;
  });

  const fail = useCallback((ids: string[]) => {
    if (ids.length === 0) return;
    setMessages(withStatus(ids, 'error'));
    notifyError(T.failedToSend);
  }, []);

  const onMessage = useCallback((msg: CopilotServerMessage) => {
    // Nothing in flight: the server kept this for our key while the socket was down, so it
    // answers the last question asked before the drop.
    const current =
      inFlight.current[0] ?? messagesRef.current.filter((m) => m.role === 'user').at(-1)?.id;
    if (msg.type === 'progress') {
      setMessages(withStatus([current], 'sent'));
      setWaiting(true);
      setProgress(msg.data.message);
      return;
    }
    inFlight.current.shift();
    setWaiting(inFlight.current.length > 0);
    setProgress(null);
    if (!latest.current.panelOpen) setUnseen(true);
    if (msg.type === 'response') {
      setMessages(withStatus([current], 'sent'));
      const answer = msg.data;
      setMessages((prev) => [
        ...prev,
        { id: newId(), role: 'assistant', content: answer.response, status: 'sent', answer },
      ]);
    } else {
      setMessages(withStatus([current], 'error'));
      setMessages((prev) => [
        ...prev,
        { id: newId(), role: 'assistant', content: msg.data.error, status: 'error' },
      ]);
    }
  }, []);

  const onLost = useCallback(() => {
    // The next socket starts its own bookkeeping; what the server kept for our key comes first
    // on it and is taken as the answer to the last question (see onMessage).
    inFlight.current = [];
    setWaiting(false);
    setProgress(null);
  }, []);

  const socket = useCopilotSocket(key, token, used, onMessage, onLost);
  const { send: sendOnSocket, connect } = socket;

  const transmit = useCallback(
    (id: string, text: string, earlier: ChatMessage[]) => {
      const { cluster, org, project } = latest.current.names ?? {};
      const query: CopilotQuery = {
        message: text,
        conversation_history: historyOf(earlier),
        max_iterations: latest.current.settings.maxIterations,
        mode: latest.current.settings.mode,
        context: Object.fromEntries(Object.entries({ cluster, org, project }).filter(([, v]) => v)),
      };
      if (!sendOnSocket(query)) return false;
      inFlight.current.push(id);
      return true;
    },
    [sendOnSocket],
  );

  // A message typed while the socket was down goes out when it opens, or fails with the attempt.
  const previousState = useRef(socket.state);
  useEffect(() => {
    const previous = previousState.current;
    previousState.current = socket.state;
    const ids = queued.current;
    if (ids.length === 0) return;
    if (socket.state === 'open') {
      queued.current = [];
      const all = messagesRef.current;
      const failed = ids.filter((id) => {
        const at = all.findIndex((m) => m.id === id);
        return at >= 0 && !transmit(id, all[at].content, all.slice(0, at));
      });
      fail(failed);
    } else if (
      previous === 'connecting' &&
      (socket.state === 'closed' || socket.state === 'error')
    ) {
      queued.current = [];
      fail(ids);
    }
  }, [socket.state, transmit, fail]);

  /** Returns false (and says why) when the message cannot go out; the input is then kept. */
  const send = useCallback(
    (raw: string, replacing: string[] = []) => {
      const text = raw.trim();
      if (!text) return false;
      if (!navigator.onLine) {
        notifyError(T.offline);
        return false;
      }
      setUsed(true);
      const earlier = messagesRef.current.filter((m) => !replacing.includes(m.id));
      const id = newId();
      const next = [
        ...earlier,
        { id, role: 'user' as const, content: text, status: 'sending' as const },
      ];
      messagesRef.current = next;
      setMessages(next);
      if (!transmit(id, text, earlier)) {
        queued.current.push(id);
        connect();
      }
      return true;
    },
    [transmit, connect],
  );

  /** Sends a user message again in place of the old one and the error that answered it. */
  const resend = useCallback(
    (id: string) => {
      const all = messagesRef.current;
      const at = all.findIndex((m) => m.id === id);
      if (at < 0) return;
      const reply = all[at + 1];
      const replacing = [
        id,
        ...(reply?.role === 'assistant' && reply.status === 'error' ? [reply.id] : []),
      ];
      send(all[at].content, replacing);
    },
    [send],
  );

  const clear = useCallback(() => {
    setMessages([]);
    queued.current = [];
    setUnseen(false);
  }, []);

  /** Opens the socket: the panel was opened once in this page session. */
  const start = useCallback(() => setUsed(true), []);
  const markSeen = useCallback(() => setUnseen(false), []);

  const indicator: IndicatorState = waiting ? 'loading' : unseen ? 'loaded' : 'empty';
  return {
    messages,
    waiting,
    progress,
    indicator,
    connection: socket.state,
    /** The panel was opened in this page session (and the socket started). */
    started: used,
    start,
    send,
    resend,
    clear,
    markSeen,
  };
}

export type Copilot = ReturnType<typeof useCopilot>;
