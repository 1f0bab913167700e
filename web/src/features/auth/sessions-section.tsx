// "Where you're logged in" in the settings dialog: each session of the member, ending one, or all of
// them. A member who sees a device they do not know (a stolen key, a hijacked session) ends it here.
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { useToast } from "../../components/ui/toast";
import { ApiError } from "../../lib/api";
import { formatDate, timeAgo } from "../../lib/format";
import { useAuth } from "./auth-context";
import { useEndSession, useSessions } from "./use-sessions";

export function SessionsSection() {
  const { logoutEverywhere } = useAuth();
  const { toast } = useToast();
  const sessions = useSessions();
  const endSession = useEndSession();
  const [endingAll, setEndingAll] = useState(false);

  const failed = (err: unknown) =>
    toast({
      title: "Could not log out",
      description: (err instanceof ApiError && err.serverMessage) || "Please try again.",
      variant: "destructive",
    });

  const logOutEverywhere = async () => {
    setEndingAll(true);
    try {
      await logoutEverywhere();
      toast({ title: "Logged out everywhere", description: "Every session of your account has ended, this one too." });
    } catch (err) {
      failed(err);
      setEndingAll(false);
    }
  };

  return (
    <section aria-labelledby="sessions-section" className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-stone-50 p-4">
      <div className="flex flex-col gap-1">
        <h3 id="sessions-section" className="text-sm font-semibold text-stone-900">
          Where you're logged in
        </h3>
        <p className="text-xs text-stone-600">A device you do not know? Log it out, or log out everywhere and log in again.</p>
      </div>
      {sessions.isPending && <p className="text-sm text-stone-600">Loading sessions...</p>}
      {sessions.isError && <p className="text-sm text-red-700">Could not load your sessions.</p>}
      {sessions.data && (
        <ul className="flex flex-col divide-y divide-stone-200" aria-label="Your sessions">
          {sessions.data.map((session) => (
            <li key={session.id} className="flex items-center justify-between gap-3 py-2">
              <div className="flex min-w-0 flex-col">
                <span className="truncate text-sm font-medium text-stone-900">
                  {session.client}
                  {session.current && <span className="ml-2 rounded bg-brand-100 px-1.5 py-0.5 text-xs font-medium text-brand-800">This device</span>}
                </span>
                <span className="text-xs text-stone-600">
                  Logged in {formatDate(session.createdAt)} · last used {timeAgo(session.lastUsedAt)}
                </span>
              </div>
              {!session.current && (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Log out ${session.client}, logged in ${formatDate(session.createdAt)}`}
                  disabled={endSession.isPending}
                  onClick={() => endSession.mutate(session.id, { onError: failed })}
                >
                  Log out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {/* A way out for a lost or stolen device, not the page's main action: an outline button, after the list. */}
      <Button variant="outline" className="self-start" disabled={endingAll} onClick={() => void logOutEverywhere()}>
        {endingAll ? "Logging out..." : "Log out everywhere"}
      </Button>
    </section>
  );
}
