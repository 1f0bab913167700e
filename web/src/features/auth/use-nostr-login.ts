import { useMutation } from "@tanstack/react-query";
import { useToast } from "../../components/ui/toast";
import { useAuth } from "./auth-context";
import { signInWithNostr, type EventSigner } from "./nostr-sign-in";

/** Runs the sign-in with a signer; on success the session starts and the caller's onSignedIn runs. */
export function useNostrLogin(onSignedIn: () => void) {
  const { login } = useAuth();
  const { toast } = useToast();
  return useMutation({
    mutationFn: (sign: EventSigner) => signInWithNostr(sign),
    onSuccess: ({ sessionToken, user }) => {
      login(sessionToken, user);
      toast({ title: "Login Successful!", description: `Welcome to Gigstr${user.displayName ? `, ${user.displayName}` : ""}.` });
      onSignedIn();
    },
    onError: (err) => {
      toast({ title: "Login Failed", description: err.message, variant: "destructive" });
    },
  });
}
