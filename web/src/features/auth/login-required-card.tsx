import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { LockIcon } from "../../components/ui/icons";
import { useLoginDialog } from "./login-dialog-context";

/**
 * "Login with Nostr": opens the login dialog, after `leaving` (closing the dialog the button sits in).
 * `reason` ("Log in to post gigs.") is shown in the dialog, so it says what logging in is for.
 */
export function LoginButton({ leaving, reason, className }: { leaving?: () => void; reason?: string; className?: string }) {
  const { openLogin } = useLoginDialog();
  return (
    <Button
      className={className}
      onClick={() => {
        leaving?.();
        openLogin(reason);
      }}
    >
      Login with Nostr
    </Button>
  );
}

/** Shown in place of a members-only tab for visitors (SPEC.md §2 Post tab, Active tab). */
export function LoginRequiredCard({ action }: { action: string }) {
  return (
    <Card className="mx-auto flex max-w-md flex-col items-center gap-3 p-8 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-100 text-brand-700">
        <LockIcon size={22} />
      </span>
      <h2 className="text-lg font-semibold">Login Required</h2>
      <p className="text-sm text-stone-600">Please login with Nostr to {action}.</p>
      <LoginButton className="mt-1" reason={`Log in to ${action}.`} />
    </Card>
  );
}
