// Avatar with the spec's fallbacks (SPEC.md §2): the profile picture, else a robot generated from the
// username, else the first two letters, upper case, of the display name or username.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { cn } from "../../lib/cn";
import { CheckIcon } from "./icons";

export function avatarInitials(displayName?: string | null, username?: string | null): string {
  const source = displayName?.trim() || username?.trim() || "";
  return source.slice(0, 2).toUpperCase() || "?";
}

export interface AvatarPerson {
  username?: string | null;
  displayName?: string | null;
  profilePicture?: string | null;
  picture?: string | null;
}

const sizes = {
  xs: "h-7 w-7 text-[10px]",
  sm: "h-8 w-8 text-xs",
  md: "h-10 w-10 text-sm",
  lg: "h-20 w-20 text-2xl",
  xl: "h-24 w-24 text-3xl",
} as const;

function useRobotAvatar(username: string | null | undefined, enabled: boolean): string | undefined {
  const { data } = useQuery({
    queryKey: ["robot-avatar", username],
    queryFn: async () => {
      const { robotAvatarDataUri } = await import("#browser-only/robot-avatar");
      // Drawing the robot takes a phone some 25 ms: in a task of its own, not in the one that mounted the avatar
      // (with the rest of the member's first screen).
      await new Promise((resolve) => setTimeout(resolve, 0));
      return robotAvatarDataUri(username!);
    },
    enabled: enabled && !!username,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return data;
}

export function UserAvatar({
  user,
  size = "md",
  verified = false,
  label,
  className,
}: {
  user: AvatarPerson;
  size?: keyof typeof sizes;
  /** Shows the green verified badge (the user has a NIP-05 identifier). */
  verified?: boolean;
  /** Accessible name; without one the avatar is decorative (the name is shown beside it). */
  label?: string;
  className?: string;
}) {
  const picture = user.profilePicture || user.picture || null;
  const [failed, setFailed] = useState<Record<string, true>>({});
  const pictureUsable = !!picture && !failed[picture];
  const robot = useRobotAvatar(user.username, !pictureUsable);
  const src = pictureUsable ? picture : robot && !failed[robot] ? robot : null;

  return (
    <span
      className={cn("relative inline-flex shrink-0", sizes[size], className)}
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
    >
      <span className="flex h-full w-full items-center justify-center overflow-hidden rounded-full bg-brand-100 font-semibold text-brand-800 ring-1 ring-stone-200">
        {/* The initials stand in for the picture, so they are drawn, not text: as text they would be the
            visible words of a button named after the person ("WW" in "Account menu for Wes Worker"),
            which screen readers and speech control compare with the button's name. */}
        {!src && (
          <span
            data-testid="avatar-initials"
            data-initials={avatarInitials(user.displayName, user.username)}
            className="before:content-[attr(data-initials)]"
          />
        )}
        {src && (
          <img
            src={src}
            alt=""
            loading="lazy"
            referrerPolicy="no-referrer"
            className="absolute inset-0 h-full w-full rounded-full bg-white object-cover"
            onError={() => setFailed((f) => ({ ...f, [src]: true }))}
          />
        )}
      </span>
      {verified && (
        <span
          className="absolute -right-0.5 -bottom-0.5 flex h-[35%] min-h-4 w-[35%] min-w-4 items-center justify-center rounded-full bg-green-500 text-white ring-2 ring-white"
          title="Verified NIP-05"
        >
          <CheckIcon size={12} strokeWidth={3} />
        </span>
      )}
    </span>
  );
}
