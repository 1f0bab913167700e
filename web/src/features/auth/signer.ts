// The one signer the app signs Nostr events with after sign-in (DESIGN.md §6, decision 027): whatever signs a
// profile publish and a review (docs/decisions/028) ask here. A member who logged in with their extension or a remote signer
// keeps it for this tab; one who typed a key or made one here keeps nothing (the key is never kept), and then the
// extension, if the browser has one, signs as before. A remote signer's session is kept in sessionStorage, so a
// reload reconnects to it without a new approval; logging out forgets it.
import type { AppSigner, NostrEventTemplate, SignedNostrEvent } from "../../lib/nostr";
import { readRemoteSession, RemoteSignerError, type RemoteSession } from "./remote-signer-url";

/** sessionStorage: the remote signer this tab signed in with (decision 027). */
export const REMOTE_SESSION_KEY = "gigstr.remoteSigner";

export const SIGNER_TEXTS = {
  none: "Install a Nostr extension like Alby or nos2x, or log in with a remote signer, to sign with your Nostr key.",
  otherKey: {
    extension: "Your Nostr extension holds a different key than the one you logged in with.",
    remote: "Your remote signer holds a different key than the one you logged in with.",
  },
  name: { extension: "extension", remote: "remote signer" },
} as const;

/** No extension and no remote signer: nothing can sign as the member here. */
export class NoSignerError extends Error {
  constructor() {
    super(SIGNER_TEXTS.none);
    this.name = "NoSignerError";
  }
}

let chosen: AppSigner | null = null;

/** The browser's NIP-07 extension as a signer (window.nostr is asked at each use: it may load late). */
export function extensionSigner(): AppSigner {
  return {
    kind: "extension",
    getPublicKey: () => {
      if (!window.nostr) throw new NoSignerError();
      return window.nostr.getPublicKey();
    },
    signEvent: (template) => {
      if (!window.nostr) throw new NoSignerError();
      return window.nostr.signEvent(template);
    },
  };
}

function storedSession(): RemoteSession | null {
  try {
    const text = sessionStorage.getItem(REMOTE_SESSION_KEY);
    return text ? readRemoteSession(JSON.parse(text)) : null;
  } catch {
    return null;
  }
}

function storeSession(session: RemoteSession | null) {
  try {
    if (session) sessionStorage.setItem(REMOTE_SESSION_KEY, JSON.stringify(session));
    else sessionStorage.removeItem(REMOTE_SESSION_KEY);
  } catch {
    // Storage refused (a private window's quota): the signer still works until the tab reloads.
  }
}

/**
 * A remote signer kept from before a reload: known at once (its public key is stored), connected to on its first
 * signature, when the NIP-46 code loads.
 */
function reconnecting(session: RemoteSession): AppSigner {
  let restored: Promise<AppSigner> | null = null;
  const signer = () => (restored ??= import("#browser-only/remote-signer").then(({ restoreRemoteSigner }) => restoreRemoteSigner(session)));
  return {
    kind: "remote",
    getPublicKey: async () => session.userPubkey,
    signEvent: async (template, options) => (await signer()).signEvent(template, options),
    close: () => void restored?.then((s) => s.close?.()),
  };
}

/**
 * Sets the signer the member signed in with: an extension or remote signer is kept for this tab; null (a typed or
 * new key) keeps nothing. A remote signer's session (see RemoteSession) is stored so a reload reconnects.
 */
export function setCurrentSigner(signer: (AppSigner & { session?: RemoteSession }) | null) {
  if (chosen && chosen !== signer) chosen.close?.();
  chosen = signer;
  storeSession(signer?.kind === "remote" && signer.session ? signer.session : null);
}

/** Logging out: the kept signer is closed and forgotten, and so is its stored session. */
export function forgetCurrentSigner() {
  if (!chosen && !storedSession()) return;
  chosen?.close?.();
  chosen = null;
  storeSession(null);
}

/**
 * The signer to sign with now: the one kept from sign-in (or from before a reload), else the browser's extension,
 * else none.
 */
export function currentSigner(): AppSigner | null {
  if (!chosen) {
    const session = storedSession();
    if (session) chosen = reconnecting(session);
  }
  if (chosen) return chosen;
  return typeof window !== "undefined" && window.nostr ? extensionSigner() : null;
}

/**
 * Signs `template` as the member with the current signer. With `pubkey`, a signature by any other key is refused:
 * a signer holding another key than the member's signs nothing in their name here.
 */
export async function signAsMember(template: NostrEventTemplate, { pubkey, signal }: { pubkey?: string; signal?: AbortSignal } = {}): Promise<SignedNostrEvent> {
  const signer = currentSigner();
  if (!signer) throw new NoSignerError();
  let signed: SignedNostrEvent;
  try {
    signed = await signer.signEvent(template, { signal });
  } catch (err) {
    if (err instanceof RemoteSignerError || err instanceof NoSignerError) throw err;
    const reason = err instanceof Error && err.message ? `: ${err.message}` : ".";
    throw new Error(`Your ${SIGNER_TEXTS.name[signer.kind]} did not sign${reason}`, { cause: err });
  }
  if (pubkey && signed.pubkey !== pubkey) throw new Error(SIGNER_TEXTS.otherKey[signer.kind]);
  return signed;
}
