// Signing in with a remote signer (NIP-46, DESIGN.md §6, decision 027): what a person pastes (a bunker:// link) is
// read here, without loading any Nostr code, so a wrong paste is answered at once and nobody is contacted. The
// errors a remote signer can end in carry the texts the login dialog shows.

/** Where a remote signer listens and who it is: the parts of a bunker:// link (nostr-tools' BunkerPointer). */
export interface BunkerPointer {
  /** The remote signer's own public key (hex); not necessarily the member's. */
  pubkey: string;
  /** The relays it listens on (ws:// or wss://). */
  relays: string[];
  /** The link's one-time connection secret, if it has one. */
  secret: string | null;
}

/** What a tab keeps (sessionStorage) to reconnect after a reload; the member's key stays in the signer. */
export interface RemoteSession {
  /** This tab's own key (hex) for talking to the signer; not the member's key. */
  clientSecretKey: string;
  /** The remote signer's public key and relays (no connection secret: it was single-use). */
  remotePubkey: string;
  relays: string[];
  /** The member's public key (hex), as the signer said at sign-in. */
  userPubkey: string;
}

/** How a remote-signer attempt ended, when it did not work. */
export type RemoteSignerProblem = "bad-url" | "timeout" | "refused" | "unreachable" | "cancelled" | "failed";

export class RemoteSignerError extends Error {
  constructor(
    readonly problem: RemoteSignerProblem,
    message: string,
  ) {
    super(message);
    this.name = "RemoteSignerError";
  }
}

/** Whether an error (or what it wraps) is a Cancel the person pressed: nothing to report. */
export function isCancelled(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    if (e instanceof RemoteSignerError && e.problem === "cancelled") return true;
  }
  return false;
}

export const BUNKER_URL_TEXTS = {
  empty: "Paste the bunker:// link from your signer app.",
  nostrconnect: "That is a nostrconnect:// link, which is for your signer app to open. Paste the bunker:// link from your signer instead, or use the QR code.",
  notBunker: "That is not a bunker:// link. Copy the whole link from your signer app: it starts with bunker://.",
  badKey: "The bunker:// link has no valid signer key: it should be 64 hex characters right after bunker://.",
  noRelay: "The bunker:// link names no relay (relay=wss://…). Copy the whole link from your signer app.",
  badRelay: (relay: string) => `The bunker:// link names “${relay}”, which is not a relay address (wss://…).`,
} as const;

const badUrl = (message: string) => new RemoteSignerError("bad-url", message);

/** Reads a bunker:// link; throws a RemoteSignerError ("bad-url") that says what is wrong with it. */
export function parseBunkerUrl(input: string): BunkerPointer {
  const text = input.trim();
  if (!text) throw badUrl(BUNKER_URL_TEXTS.empty);
  if (/^nostrconnect:/i.test(text)) throw badUrl(BUNKER_URL_TEXTS.nostrconnect);
  if (!/^bunker:\/\//i.test(text)) throw badUrl(BUNKER_URL_TEXTS.notBunker);
  const rest = text.slice("bunker://".length);
  const [keyPart = "", query = ""] = rest.split(/\?(.*)/s, 2);
  const pubkey = keyPart.replace(/\/+$/, "").toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(pubkey)) throw badUrl(BUNKER_URL_TEXTS.badKey);
  const params = new URLSearchParams(query);
  const relays: string[] = [];
  for (const relay of params.getAll("relay")) {
    const value = relay.trim();
    if (!isRelayUrl(value)) throw badUrl(BUNKER_URL_TEXTS.badRelay(value.slice(0, 80)));
    if (!relays.includes(value)) relays.push(value);
  }
  if (relays.length === 0) throw badUrl(BUNKER_URL_TEXTS.noRelay);
  return { pubkey, relays, secret: params.get("secret") || null };
}

function isRelayUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "wss:" || url.protocol === "ws:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** A kept session as read back from storage, or null when it is not one (an old shape, a hand edit). */
export function readRemoteSession(value: unknown): RemoteSession | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const hex = (x: unknown) => typeof x === "string" && /^[0-9a-f]{64}$/.test(x);
  if (!hex(v.clientSecretKey) || !hex(v.remotePubkey) || !hex(v.userPubkey)) return null;
  if (!Array.isArray(v.relays) || v.relays.length === 0 || !v.relays.every((r) => typeof r === "string" && isRelayUrl(r))) return null;
  return { clientSecretKey: v.clientSecretKey as string, remotePubkey: v.remotePubkey as string, relays: [...(v.relays as string[])], userPubkey: v.userPubkey as string };
}
