// A stand-in for the browser's WebSocket that a test drives as the server would. Every jsdom test gets it
// (setup.ts), so no test opens a real socket by rendering a screen that listens.
import { act } from "@testing-library/react";

export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];
  readyState = FakeWebSocket.CONNECTING;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  readonly protocols: string[];

  constructor(
    readonly url: string,
    protocols?: string | string[],
  ) {
    this.protocols = protocols === undefined ? [] : Array.isArray(protocols) ? protocols : [protocols];
    FakeWebSocket.instances.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close() {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.({ code: 1000 });
  }

  // Driven by the test, as the server would:
  open() {
    act(() => {
      this.readyState = FakeWebSocket.OPEN;
      this.onopen?.();
    });
  }

  receive(frame: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(frame) }));
  }

  drop(code = 1006) {
    act(() => {
      this.readyState = FakeWebSocket.CLOSED;
      this.onclose?.({ code });
    });
  }

  /** The sockets opened to `path` (e.g. "/api/notifications/socket"). */
  static to(path: string): FakeWebSocket[] {
    return FakeWebSocket.instances.filter((s) => new URL(s.url).pathname === path);
  }
}
