// /profile/:userId, linked from the admin Reports tab (SPEC.md §2), which knows the reporter only by the
// internal user id. Public profiles live at /user/:npub, so the user is looked up by id (GET /api/users/{id})
// and the page is replaced by /user/{username}; a username is the member's npub.
import { useQuery } from "@tanstack/react-query";
import { Link, Navigate, useParams } from "react-router";
import type { PublicUser } from "../../../domain/profile";
import { buttonClasses } from "../components/ui/button";
import { profileKeys } from "../features/profile/use-profile";
import { ApiError, apiJson, errorText } from "../lib/api";
import { RouteLoading } from "./root-layout";

export function ProfileByIdRoute() {
  const { userId = "" } = useParams();
  const user = useQuery({
    queryKey: profileKeys.byId(userId),
    queryFn: () => apiJson<PublicUser>("GET", `/api/users/${encodeURIComponent(userId)}`),
  });

  if (user.isPending) return <RouteLoading />;
  if (user.isError || !user.data?.username) {
    const missing = !user.isError || (user.error instanceof ApiError && user.error.status === 404);
    return (
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        <h1 className="text-xl font-semibold">{missing ? "User not found" : "Could not load this user"}</h1>
        <p className="text-sm text-stone-600">
          {missing ? "No Gigstr member has this user ID." : errorText(user.error, "Please try again.")}
        </p>
        <Link to="/" className={buttonClasses("primary")}>
          Back to Home
        </Link>
      </div>
    );
  }
  return <Navigate replace to={`/user/${encodeURIComponent(user.data.username)}`} />;
}
