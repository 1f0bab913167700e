// The member's inbox socket (`/api/notifications/socket`): the unread count as it opens, then each new
// notification as it is written. While it is open the bell does not poll; when it drops, the poll takes over
// and the socket is tried again INBOX_RECONNECT_MS later. A session that ended closes it for good (the poll's
// 401 then signs the member out). Every frame is parsed, never cast.
import { useEffect, useRef, useState } from "react";
import { INBOX_PROTOCOL, INBOX_RECONNECT_MS, INBOX_TOKEN_PREFIX, parseInboxFrame, type InboxFrame } from "../../../../domain/notifications";
import { getSessionToken } from "../../lib/api";
import { socketUrl } from "../../lib/socket-url";

/** The close code of a socket whose session ended (the server's policy-violation close). */
const SESSION_ENDED = 1008;

/** Listens while `userId` is signed in; answers whether the socket is open (the poll can rest). */
export function useInboxSocket(userId: string | undefined, onFrame: (frame: InboxFrame) => void): boolean {
  const [open, setOpen] = useState(false);
  const onFrameRef = useRef(onFrame);
  useEffect(() => {
    onFrameRef.current = onFrame;
  });

  useEffect(() => {
    if (!userId || typeof WebSocket === "undefined") return;
    let stopped = false;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      const token = getSessionToken();
      if (!token || stopped) return;
      const ws = new WebSocket(socketUrl("/api/notifications/socket"), [INBOX_PROTOCOL, `${INBOX_TOKEN_PREFIX}${token}`]);
      socket = ws;
      ws.onmessage = (event: MessageEvent) => {
        let frame: InboxFrame | null = null;
        try {
          frame = parseInboxFrame(JSON.parse(typeof event.data === "string" ? event.data : ""));
        } catch {
          frame = null;
        }
        if (!frame) {
          console.error("Ignoring an inbox frame the client does not understand", event.data);
          return;
        }
        // The first frame (the count) says the socket is really listening.
        setOpen(true);
        onFrameRef.current(frame);
      };
      ws.onclose = (event: CloseEvent) => {
        if (socket === ws) socket = null;
        setOpen(false);
        if (stopped || event.code === SESSION_ENDED) return;
        retry = setTimeout(connect, INBOX_RECONNECT_MS);
      };
    };

    // Opened in a task of its own, not in the one that mounts the member's first screen (its length on a phone).
    retry = setTimeout(connect, 0);
    return () => {
      stopped = true;
      clearTimeout(retry);
      setOpen(false);
      socket?.close();
    };
  }, [userId]);

  return open;
}
