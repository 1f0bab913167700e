import type { PublicUser } from "../../../../domain/profile";
import { UserAvatar } from "../../components/ui/avatar";
import { Badge } from "../../components/ui/badge";
import { CopyButton } from "../../components/ui/copy-button";
import { CheckIcon } from "../../components/ui/icons";
import { shorten } from "../../lib/format";

/** Avatar (green badge when NIP-05 is set), display name, @username, bio. */
export function ProfileHeader({ user, copyNpub = false }: { user: PublicUser; copyNpub?: boolean }) {
  const name = user.displayName || shorten(user.username, true);
  return (
    <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:items-start sm:text-left">
      <UserAvatar user={user} size="xl" verified={!!user.nip05} />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{name}</h1>
        <div className="flex flex-wrap items-center justify-center gap-1 text-sm text-stone-500 sm:justify-start">
          <span title={user.username} className="font-mono">
            @{shorten(user.username)}
          </span>
          {copyNpub && <CopyButton value={user.username} label="Copy npub" copiedDescription="npub copied to clipboard" className="h-7 w-7" />}
          {user.nip05 && (
            <Badge variant="success" className="ml-1">
              <CheckIcon size={12} strokeWidth={3} />
              <span className="sr-only">Verified NIP-05: </span>
              {user.nip05}
            </Badge>
          )}
        </div>
        {user.bio && <p className="mt-1 max-w-2xl text-stone-700 whitespace-pre-line">{user.bio}</p>}
      </div>
    </div>
  );
}
