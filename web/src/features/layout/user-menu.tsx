import { Link } from "react-router";
import type { OwnUser } from "../../../../domain/profile";
import { UserAvatar } from "../../components/ui/avatar";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu";
import { ChevronDownIcon, LogOutIcon, SettingsIcon, UserIcon } from "../../components/ui/icons";
import { shorten } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { useSettingsDialog } from "../profile/settings-context";

/** Avatar and display name (or username), with Profile, Settings and Logout. */
export function UserMenu({ user }: { user: OwnUser }) {
  const { logout } = useAuth();
  const { openSettings } = useSettingsDialog();
  const name = user.displayName || shorten(user.username, true);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex cursor-pointer items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-stone-800 hover:bg-stone-100 data-[state=open]:bg-stone-100"
        aria-label={`Account menu for ${name}`}
      >
        <UserAvatar user={user} size="sm" />
        <span className="hidden max-w-36 truncate sm:inline">{name}</span>
        <ChevronDownIcon className="text-stone-500" />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <span className="block truncate font-medium text-stone-900">{name}</span>
          <span className="block font-mono">{shorten(user.username, true)}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <UserIcon />
            Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={openSettings}>
          <SettingsIcon />
          Settings
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={logout}>
          <LogOutIcon />
          Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
