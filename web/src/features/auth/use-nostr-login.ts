import { useMutation } from "@tanstack/react-query";
import { useToast } from "../../components/ui/toast";
import type { AppSigner } from "../../lib/nostr";
import { useAuth } from "./auth-context";
import { signInWithNostr, type EventSigner } from "./nostr-sign-in";
import { isCancelled } from "./remote-signer-url";
import { setCurrentSigner } from "./signer";

/**
 * How a sign-in signs: a one-off function (a typed or new key: nothing is kept), a signer the app keeps for later
 * signatures (the extension), or one still to connect first (a remote signer), kept too once the sign-in worked.
 */
export type LoginWith = EventSigner | AppSigner | { connect: () => Promise<AppSigner>; signal?: AbortSignal };

/** Runs the sign-in with a signer; on success the session starts and the caller's onSignedIn runs. */
export function useNostrLogin(onSignedIn: () => void) {
  const { login } = useAuth();
  const { toast } = useToast();
  return useMutation({
    mutationFn: async (how: LoginWith) => {
      const kept = typeof how === "function" ? null : "connect" in how ? await how.connect() : how;
      // A Cancel stops the wait for the login's signature as well as for the connection.
      const signal = typeof how !== "function" && "connect" in how ? how.signal : undefined;
      const sign: EventSigner = kept ? (template) => kept.signEvent(template, signal ? { signal } : undefined) : (how as EventSigner);
      try {
        return { ...(await signInWithNostr(sign)), kept };
      } catch (err) {
        // A remote signer connected for this attempt only: let go of it.
        if (kept && typeof how !== "function" && "connect" in how) kept.close?.();
        throw err;
      }
    },
    onSuccess: ({ sessionToken, user, kept }) => {
      setCurrentSigner(kept);
      login(sessionToken, user);
      toast({ title: "Login Successful!", description: `Welcome to Gigstr${user.displayName ? `, ${user.displayName}` : ""}.` });
      onSignedIn();
    },
    onError: (err) => {
      // Cancel was pressed: the person knows.
      if (isCancelled(err)) return;
      toast({ title: "Login Failed", description: err.message, variant: "destructive" });
    },
  });
}
