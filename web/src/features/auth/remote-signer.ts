// A NIP-46 remote signer (DESIGN.md §6, decision 027) through nostr-tools' BunkerSigner: connect with a bunker://
// link, or show a nostrconnect:// URI and wait for the signer app to connect; then ask it for the member's key and
// for signatures. Every request is bounded in time and can be cancelled: nostr-tools' own requests wait forever.
// Loaded only when a remote signer is used (nostr-tools' pool and NIP-44 are heavy).
import { BunkerSigner, createNostrConnectURI } from "nostr-tools/nip46";
import { SimplePool } from "nostr-tools/pool";
import { generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { bytesToHex, hexToBytes } from "nostr-tools/utils";
import { REVIEW_KIND } from "../../../../domain/nostr-review";
import { LOGIN_EVENT_KIND, type AppSigner, type NostrEventTemplate, type SignedNostrEvent } from "../../lib/nostr";
import { RemoteSignerError, type BunkerPointer, type RemoteSession } from "./remote-signer-url";

/** How long a connect or a signature may take: time to unlock a phone and tap "Approve". */
export const REMOTE_SIGNER_WAIT_MS = 90_000;
/** How long a nostrconnect:// QR code waits for a signer app to connect. */
export const NOSTRCONNECT_WAIT_MS = 5 * 60_000;
/** What a nostrconnect:// URI asks the signer for: signing logins, profiles and reviews (kind 1985, decision 028). */
export const REQUESTED_PERMISSIONS = [`sign_event:${LOGIN_EVENT_KIND}`, "sign_event:0", `sign_event:${REVIEW_KIND}`, "get_public_key"];

export interface RemoteSignerOptions {
  /** Gives up waiting (the Cancel button). */
  signal?: AbortSignal;
  /** The signer asks the person to approve at this web page (NIP-46 auth_url). */
  onAuthUrl?: (url: string) => void;
  /** How long each request may take. */
  waitMs?: number;
}

function seconds(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 120_000) return `${ms / 60_000} minutes`;
  const n = Math.max(1, Math.round(ms / 1000));
  return `${n} second${n === 1 ? "" : "s"}`;
}

/** What went wrong with a request, in words a person can act on. */
function explain(err: unknown, relays: string[]): RemoteSignerError {
  if (err instanceof RemoteSignerError) return err;
  // A signer's refusal comes back as its own error text (a string, not an Error).
  if (typeof err === "string") return new RemoteSignerError("refused", `Your signer refused: ${err || "no reason given"}.`);
  // No relay took the request (publish failed on every relay), or the connection could not be made.
  if (err instanceof AggregateError || (err instanceof Error && /connect|websocket|closed|relay/i.test(err.message))) {
    return new RemoteSignerError("unreachable", `Could not reach your signer's relay (${relays.join(", ")}). Check the link and your connection.`);
  }
  return new RemoteSignerError("failed", `Your signer could not be used: ${err instanceof Error ? err.message : String(err)}`);
}

/** `work`, or a RemoteSignerError when it takes longer than `waitMs` or `signal` is aborted first. */
async function bounded<T>(work: Promise<T>, waitMs: number, relays: string[], signal?: AbortSignal, timeoutText?: string): Promise<T> {
  if (signal?.aborted) throw new RemoteSignerError("cancelled", "Cancelled.");
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new RemoteSignerError(
            "timeout",
            timeoutText ?? `Your signer did not answer within ${seconds(waitMs)}. Check that it is running and online, then try again.`,
          ),
        ),
      waitMs,
    );
    onAbort = () => reject(new RemoteSignerError("cancelled", "Cancelled."));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stop]);
  } catch (err) {
    throw explain(err, relays);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

/** The member's remote signer: the app's signer for them until they log out or close the tab. */
export class RemoteSigner implements AppSigner {
  readonly kind = "remote" as const;
  /** The last page the signer asked the person to approve at (auth_url), for a message when a request times out. */
  authUrl: string | null = null;

  constructor(
    private readonly bunker: BunkerSigner,
    private readonly pool: SimplePool,
    readonly session: RemoteSession,
    private readonly waitMs: number,
  ) {}

  async getPublicKey(): Promise<string> {
    return this.session.userPubkey;
  }

  async signEvent(template: NostrEventTemplate, options: { signal?: AbortSignal } = {}): Promise<SignedNostrEvent> {
    const approve = () => (this.authUrl ? ` Your signer asked you to approve at ${this.authUrl}.` : "");
    const signed = await bounded(
      this.bunker.signEvent({ ...template, tags: template.tags.map((tag) => [...tag]) }),
      this.waitMs,
      this.session.relays,
      options.signal,
      `Your signer did not sign within ${seconds(this.waitMs)}.${approve()} Check that it is running and online, then try again.`,
    );
    if (signed.pubkey !== this.session.userPubkey) {
      throw new RemoteSignerError("failed", "Your signer signed with a different key than the one it gave at sign-in.");
    }
    return signed;
  }

  close(): void {
    release(this.bunker, this.pool);
  }
}

/** Stops listening and closes the relay connections (reconnecting ones too). */
function release(bunker: BunkerSigner, pool: SimplePool) {
  void bunker
    .close()
    .catch(() => undefined)
    .finally(() => pool.destroy());
}

function newPool(): SimplePool {
  // A dropped relay connection comes back by itself: the signer stays usable for the whole visit.
  return new SimplePool({ enableReconnect: true });
}

/** Asks the signer for the member's key, then hands back the signer ready to sign. */
async function finish(bunker: BunkerSigner, pool: SimplePool, clientKey: Uint8Array, options: RemoteSignerOptions, waitMs: number): Promise<RemoteSigner> {
  const relays = bunker.bp.relays;
  const userPubkey = await bounded(bunker.getPublicKey(), waitMs, relays, options.signal);
  if (!/^[0-9a-f]{64}$/.test(userPubkey)) throw new RemoteSignerError("failed", "Your signer did not give a valid public key.");
  return new RemoteSigner(bunker, pool, { clientSecretKey: bytesToHex(clientKey), remotePubkey: bunker.bp.pubkey, relays: [...relays], userPubkey }, waitMs);
}

/** The page a NIP-46 request was sent from, for the signer app to show (none outside a browser). */
function appUrl(): string | undefined {
  return typeof location === "undefined" ? undefined : location.origin;
}

/**
 * Where a signer's auth_url goes: to whoever waits (the login dialog) and onto the signer, so a request that then
 * times out can say where the signer wanted it approved.
 */
function authUrlRelay(options: RemoteSignerOptions) {
  const relay = {
    signer: null as RemoteSigner | null,
    last: null as string | null,
    onauth: (url: string) => {
      relay.last = url;
      if (relay.signer) relay.signer.authUrl = url;
      options.onAuthUrl?.(url);
    },
    attach(signer: RemoteSigner) {
      relay.signer = signer;
      signer.authUrl = relay.last;
      return signer;
    },
  };
  return relay;
}

/** Connects with a bunker:// link (already read by parseBunkerUrl): NIP-46 `connect` with its secret, then the key. */
export async function connectBunker(pointer: BunkerPointer, options: RemoteSignerOptions = {}): Promise<RemoteSigner> {
  const waitMs = options.waitMs ?? REMOTE_SIGNER_WAIT_MS;
  const clientKey = generateSecretKey();
  const auth = authUrlRelay(options);
  const pool = newPool();
  const bunker = BunkerSigner.fromBunker(clientKey, { ...pointer, relays: [...pointer.relays] }, { pool, onauth: auth.onauth });
  try {
    await bounded(bunker.connect({ name: "Gigstr", url: appUrl() }), waitMs, pointer.relays, options.signal);
    return auth.attach(await finish(bunker, pool, clientKey, options, waitMs));
  } catch (err) {
    release(bunker, pool);
    throw err;
  }
}

export interface NostrConnectInvite {
  /** nostrconnect://… for the QR code and the "open in signer app" link. */
  uri: string;
  /** Settles once a signer app connected through the URI (or fails: timeout, Cancel). */
  connected: Promise<RemoteSigner>;
}

/**
 * A nostrconnect:// URI on `relays` for a signer app to open or scan; `connected` resolves with the signer once it
 * connected and gave the member's key. Listening starts before the URI is handed out.
 */
export async function inviteNostrConnect(relays: string[], options: RemoteSignerOptions = {}): Promise<NostrConnectInvite> {
  const waitMs = options.waitMs ?? NOSTRCONNECT_WAIT_MS;
  const clientKey = generateSecretKey();
  const secret = bytesToHex(generateSecretKey()).slice(0, 32);
  const uri = createNostrConnectURI({
    clientPubkey: getPublicKey(clientKey),
    relays,
    secret,
    perms: REQUESTED_PERMISSIONS,
    name: "Gigstr",
    url: appUrl(),
  });
  const pool = newPool();
  const auth = authUrlRelay(options);
  // The answer is an ephemeral event: be connected to the relays before anyone can answer.
  try {
    await bounded(Promise.any(relays.map((relay) => pool.ensureRelay(relay, { connectionTimeout: 10_000 }))), waitMs, relays, options.signal);
  } catch (err) {
    pool.destroy();
    throw err;
  }
  const stop = new AbortController();
  const abort = () => stop.abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  const connected = (async () => {
    try {
      const bunker = await bounded(
        BunkerSigner.fromURI(clientKey, uri, { pool, onauth: auth.onauth }, stop.signal),
        waitMs,
        relays,
        options.signal,
        `No signer app connected within ${seconds(waitMs)}. Show a new code and try again.`,
      );
      try {
        return auth.attach(await finish(bunker, pool, clientKey, options, REMOTE_SIGNER_WAIT_MS));
      } catch (err) {
        void bunker.close().catch(() => undefined);
        throw err;
      }
    } catch (err) {
      stop.abort();
      pool.destroy();
      throw err;
    } finally {
      options.signal?.removeEventListener("abort", abort);
    }
  })();
  return { uri, connected };
}

/** The remote signer a tab kept (after a reload): no new `connect`, the signer already knows this tab's key. */
export function restoreRemoteSigner(session: RemoteSession, options: Pick<RemoteSignerOptions, "waitMs"> = {}): RemoteSigner {
  const auth = authUrlRelay({});
  const pointer = { pubkey: session.remotePubkey, relays: [...session.relays], secret: null };
  const pool = newPool();
  const bunker = BunkerSigner.fromBunker(hexToBytes(session.clientSecretKey), pointer, { pool, onauth: auth.onauth });
  return auth.attach(new RemoteSigner(bunker, pool, session, options.waitMs ?? REMOTE_SIGNER_WAIT_MS));
}
