// The Nostr sign-in exchange (SPEC.md §7, DESIGN.md §6): ask for a challenge, sign a kind-22242 event that
// carries it, and have the server verify it. Failures carry the spec's texts (SPEC.md §8 login fallbacks).
import type { OwnUser } from "../../../../domain/profile";
import { ApiError, NO_CONNECTION_TEXT, apiJson, isNetworkError } from "../../lib/api";
import { loginEventTemplate, PrivateKeyError, type NostrEventTemplate, type SignedNostrEvent } from "../../lib/nostr";

export const SERVER_VERIFICATION_FAILED = "Server verification failed";
export const AUTHENTICATION_FAILED = "Authentication failed";

export interface LoginChallenge {
  challenge: string;
  challengeId: string;
}

export interface LoginResult {
  sessionToken: string;
  user: OwnUser;
}

export type EventSigner = (template: NostrEventTemplate) => Promise<SignedNostrEvent>;

/** A failed sign-in; its message is what the Login Failed toast says. */
export class LoginError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "LoginError";
  }
}

export async function signInWithNostr(sign: EventSigner): Promise<LoginResult> {
  let challenge: LoginChallenge;
  try {
    challenge = await apiJson<LoginChallenge>("POST", "/api/auth/nostr/challenge");
  } catch (err) {
    throw new LoginError(isNetworkError(err) ? NO_CONNECTION_TEXT : (err instanceof ApiError && err.serverMessage) || AUTHENTICATION_FAILED);
  }

  let event: SignedNostrEvent;
  try {
    event = await sign(loginEventTemplate(challenge.challenge));
  } catch (err) {
    if (err instanceof PrivateKeyError) throw new LoginError(err.message);
    throw new LoginError(err instanceof Error && err.message ? err.message : AUTHENTICATION_FAILED, { cause: err });
  }

  let result: LoginResult;
  try {
    result = await apiJson<LoginResult>("POST", "/api/auth/nostr/verify", { event, challengeId: challenge.challengeId });
  } catch (err) {
    throw new LoginError(isNetworkError(err) ? NO_CONNECTION_TEXT : (err instanceof ApiError && err.serverMessage) || SERVER_VERIFICATION_FAILED);
  }
  if (!result?.sessionToken || !result.user) throw new LoginError(SERVER_VERIFICATION_FAILED);
  return result;
}
