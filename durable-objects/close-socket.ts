// Closing a hibernatable socket that the other side may already have closed: the runtime throws then, and
// there is nothing left to do. Shared by the GigRoom and the MemberInbox.

/** Closes `ws` with `code` and `reason`, or does nothing when it is already closed. */
export function closeSocket(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    /* already closed */
  }
}
