// Anyone can ask for the login dialog (the top bar, a Login Required card, a claim button).
// The dialog and its Nostr code load on first use, keeping them out of the first page.
import { createContext, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { lazyPart } from "../../lib/lazy-part";

const LoginDialog = lazyPart(() => import("#browser-only/login-dialog").then((m) => m.LoginDialog));

interface LoginDialogApi {
  /** Opens the login dialog; `reason` (e.g. "Log in to claim this gig.") is shown under its title. */
  openLogin: (reason?: string) => void;
}

const LoginDialogContext = createContext<LoginDialogApi | null>(null);

export function LoginDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const [reason, setReason] = useState<string | undefined>();
  const openLogin = useCallback((why?: string) => {
    setReason(why);
    setRequested(true);
    setOpen(true);
  }, []);
  const api = useMemo(() => ({ openLogin }), [openLogin]);

  return (
    <LoginDialogContext.Provider value={api}>
      {children}
      {requested && (
        <Suspense fallback={null}>
          <LoginDialog open={open} onOpenChange={setOpen} reason={reason} />
        </Suspense>
      )}
    </LoginDialogContext.Provider>
  );
}

export function useLoginDialog(): LoginDialogApi {
  const api = useContext(LoginDialogContext);
  if (!api) throw new Error("useLoginDialog must be used within LoginDialogProvider");
  return api;
}
