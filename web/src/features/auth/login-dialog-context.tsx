// Anyone can ask for the login dialog (the top bar, a Login Required card, a claim button).
// The dialog and its Nostr code load on first use, keeping them out of the first page.
import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

const LoginDialog = lazy(() => import("./login-dialog").then((m) => ({ default: m.LoginDialog })));

interface LoginDialogApi {
  openLogin: () => void;
}

const LoginDialogContext = createContext<LoginDialogApi | null>(null);

export function LoginDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const openLogin = useCallback(() => {
    setRequested(true);
    setOpen(true);
  }, []);
  const api = useMemo(() => ({ openLogin }), [openLogin]);

  return (
    <LoginDialogContext.Provider value={api}>
      {children}
      {requested && (
        <Suspense fallback={null}>
          <LoginDialog open={open} onOpenChange={setOpen} />
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
