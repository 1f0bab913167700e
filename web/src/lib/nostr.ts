// Nostr helpers for sign-in (DESIGN.md §6). nostr-tools' key handling is heavy, so it is imported
// only when a key is actually handled; the private key never leaves this module's callers.

/** Our login events are kind 22242 with a `challenge` tag, so a login never looks like a public note. */
export const LOGIN_EVENT_KIND = 22242;

export interface NostrEventTemplate {
  kind: number;
  created_at: number;
  tags: string[][];
  content: string;
}

export interface SignedNostrEvent extends NostrEventTemplate {
  id: string;
  pubkey: string;
  sig: string;
}

/** NIP-07 browser extension (Alby, nos2x, ...). */
export interface Nip07Signer {
  getPublicKey(): Promise<string>;
  signEvent(event: NostrEventTemplate): Promise<SignedNostrEvent>;
}

/**
 * A signer the app keeps after sign-in to sign as the member later (a profile publish, a review): their NIP-07
 * extension or their NIP-46 remote signer. The app asks for it through features/auth/signer.ts.
 */
export interface AppSigner {
  kind: "extension" | "remote";
  /** The member's public key (hex). */
  getPublicKey(): Promise<string>;
  /** Signs as the member; `signal` gives up waiting (a Cancel). */
  signEvent(template: NostrEventTemplate, options?: { signal?: AbortSignal }): Promise<SignedNostrEvent>;
  /** Lets go of its connections (a remote signer's relays). */
  close?(): void;
}

declare global {
  interface Window {
    nostr?: Nip07Signer;
  }
}

/**
 * The login names this site in its `relay` tag: the server refuses a login naming any other, so an
 * event a hostile relay gets our member's client to sign for it (NIP-42 AUTH) opens nothing here.
 */
export function loginEventTemplate(challenge: string, siteOrigin = location.origin, nowMs = Date.now()): NostrEventTemplate {
  return {
    kind: LOGIN_EVENT_KIND,
    created_at: Math.floor(nowMs / 1000),
    tags: [
      ["challenge", challenge],
      ["relay", siteOrigin],
    ],
    content: "",
  };
}

export const INVALID_NSEC = "Invalid nsec format";
export const INVALID_PRIVATE_KEY = "Invalid private key or authentication failed";

/** A key the user typed was not usable; the message is the spec's text (SPEC.md §8 login fallbacks). */
export class PrivateKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PrivateKeyError";
  }
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Accepts an nsec (bech32) or 64 hex characters. */
export async function parsePrivateKey(input: string): Promise<Uint8Array> {
  const value = input.trim();
  if (/^nsec1/i.test(value)) {
    const { decode } = await import("nostr-tools/nip19");
    try {
      const decoded = decode(value.toLowerCase());
      if (decoded.type !== "nsec") throw new Error("not an nsec");
      return decoded.data;
    } catch {
      throw new PrivateKeyError(INVALID_NSEC);
    }
  }
  if (/^[0-9a-f]{64}$/i.test(value)) return hexToBytes(value.toLowerCase());
  if (/^nsec/i.test(value)) throw new PrivateKeyError(INVALID_NSEC);
  throw new PrivateKeyError(INVALID_PRIVATE_KEY);
}

/** Signs with a private key held in memory; a key outside the curve's range is reported as an invalid key. */
export async function signWithPrivateKey(secretKey: Uint8Array, template: NostrEventTemplate): Promise<SignedNostrEvent> {
  const { finalizeEvent } = await import("nostr-tools/pure");
  try {
    return finalizeEvent(template, secretKey);
  } catch {
    throw new PrivateKeyError(INVALID_PRIVATE_KEY);
  }
}

export interface GeneratedKeys {
  secretKey: Uint8Array;
  npub: string;
  nsec: string;
}

export async function generateKeys(): Promise<GeneratedKeys> {
  const [{ generateSecretKey, getPublicKey }, { npubEncode, nsecEncode }] = await Promise.all([
    import("nostr-tools/pure"),
    import("nostr-tools/nip19"),
  ]);
  const secretKey = generateSecretKey();
  return { secretKey, npub: npubEncode(getPublicKey(secretKey)), nsec: nsecEncode(secretKey) };
}
