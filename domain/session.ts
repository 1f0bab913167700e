// A member's sign-in sessions as the sessions list shows them (GET /api/auth/sessions).

export interface SessionView {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  /** A short label of the browser signed in from, e.g. "Firefox on Android". */
  client: string;
  /** The session this request came with: "This device". */
  current: boolean;
}
