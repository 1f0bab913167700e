// The "Profile and settings" dialog (SPEC.md §2 Other modals), reachable from the user menu and from the
// Post flow ("Lightning Address Required" opens it). The dialog's code loads on first use.
import { createContext, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { useAuth } from "../auth/auth-context";
import { lazyPart } from "../../lib/lazy-part";

const SettingsDialog = lazyPart(() => import("#browser-only/settings-dialog").then((m) => m.SettingsDialog));

interface SettingsDialogApi {
  openSettings: () => void;
}

const SettingsDialogContext = createContext<SettingsDialogApi | null>(null);

export function SettingsDialogProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const openSettings = useCallback(() => setOpen(true), []);
  const api = useMemo(() => ({ openSettings }), [openSettings]);
  return (
    <SettingsDialogContext.Provider value={api}>
      {children}
      {open && user && (
        <Suspense fallback={null}>
          <SettingsDialog user={user} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </SettingsDialogContext.Provider>
  );
}

export function useSettingsDialog(): SettingsDialogApi {
  const api = useContext(SettingsDialogContext);
  if (!api) throw new Error("useSettingsDialog must be used within SettingsDialogProvider");
  return api;
}
