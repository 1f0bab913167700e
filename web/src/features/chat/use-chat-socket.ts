// The live side of a gig's chat (SPEC.md §7 Real-time chat): connect to /ws?gigId=, authenticate with the
// session token, join the gig, then receive new_message frames. Every frame is parsed, never cast.
// A close schedules a reconnect 3 s later; sending while not joined is only logged (SPEC.md §8). Signed
// out, or refused by the server before joining (not a party, session ended), it stays closed and says why.
import { useCallback, useEffect, useRef, useState } from "react";
import { CHAT_RECONNECT_MS, frameJson, serverFrameSchema, type ChatMessageView } from "../../../../domain/chat-protocol";
import type { AttachmentRef } from "../../../../domain/files";
import { getSessionToken } from "../../lib/api";
import { socketUrl } from "../../lib/socket-url";

/** "closed": not trying, for a reason shown as the problem (signed out, or the server refused the join). */
export type ChatConnection = "connecting" | "connected" | "disconnected" | "closed";

export interface ChatSocketHandlers {
  onMessage: (message: ChatMessageView) => void;
  /** The server refused something this client sent after joining (a message). */
  onSendError?: (message: string) => void;
  /** Joined again after a dropped connection: messages may have been missed meanwhile. */
  onRejoined?: () => void;
}

export function chatSocketUrl(gigId: string, location: Pick<Location, "protocol" | "host"> = window.location): string {
  return socketUrl(`/ws?gigId=${encodeURIComponent(gigId)}`, location);
}

export function useChatSocket(gigId: string, enabled: boolean, handlers: ChatSocketHandlers) {
  const [status, setStatus] = useState<ChatConnection>("connecting");
  const [problem, setProblem] = useState<string | null>(null);
  const socketRef = useRef<WebSocket | null>(null);
  const joinedRef = useRef(false);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  useEffect(() => {
    if (!enabled) {
      setStatus("closed");
      setProblem("Please log in to chat.");
      return;
    }
    let stopped = false;
    let refused = false;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let joins = 0;

    const connect = () => {
      const sessionToken = getSessionToken();
      if (!sessionToken) {
        setStatus("closed");
        setProblem("Please log in to chat.");
        return;
      }
      setStatus("connecting");
      const ws = new WebSocket(chatSocketUrl(gigId));
      socketRef.current = ws;
      joinedRef.current = false;

      ws.onopen = () => ws.send(JSON.stringify({ type: "auth", sessionToken }));
      ws.onmessage = (event: MessageEvent) => {
        const parsed = serverFrameSchema.safeParse(frameJson(typeof event.data === "string" ? event.data : ""));
        if (!parsed.success) {
          console.error("Ignoring a chat frame the client does not understand", event.data);
          return;
        }
        const frame = parsed.data;
        switch (frame.type) {
          case "auth_success":
            ws.send(JSON.stringify({ type: "join_gig", gigId }));
            break;
          case "join_success":
            joinedRef.current = true;
            setStatus("connected");
            setProblem(null);
            joins += 1;
            if (joins > 1) handlersRef.current.onRejoined?.();
            break;
          case "new_message":
            handlersRef.current.onMessage(frame.message);
            break;
          case "error":
            if (joinedRef.current) handlersRef.current.onSendError?.(frame.message);
            else {
              // Refused before joining: trying again would be refused again.
              console.error("Chat connection refused:", frame.message);
              refused = true;
              setStatus("closed");
              setProblem(frame.message);
              ws.close();
            }
            break;
          default: {
            const unhandled: never = frame;
            console.error("Unhandled chat frame", unhandled);
          }
        }
      };
      ws.onclose = () => {
        if (socketRef.current === ws) socketRef.current = null;
        joinedRef.current = false;
        if (stopped || refused) return;
        setStatus("disconnected");
        reconnectTimer = setTimeout(connect, CHAT_RECONNECT_MS);
      };
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(reconnectTimer);
      const ws = socketRef.current;
      socketRef.current = null;
      joinedRef.current = false;
      ws?.close();
    };
  }, [gigId, enabled]);

  /** Sends a message; false (and a log line) when the chat is not connected. */
  const send = useCallback(
    (message: string, fileAttachment?: AttachmentRef): boolean => {
      const ws = socketRef.current;
      if (!ws || ws.readyState !== WebSocket.OPEN || !joinedRef.current) {
        console.error("Cannot send the message: the chat is not connected");
        return false;
      }
      ws.send(JSON.stringify({ type: "chat_message", gigId, message, ...(fileAttachment ? { fileAttachment } : {}) }));
      return true;
    },
    [gigId],
  );

  return { status, problem, send };
}
