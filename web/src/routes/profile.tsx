import { Navigate } from "react-router";
import { useAuth } from "../features/auth/auth-context";
import { OwnProfile } from "../features/profile/own-profile";

/** /profile: own profile; redirects to / when signed out, Loading while the session resolves. */
export function ProfileRoute() {
  const { user, isLoading } = useAuth();
  if (isLoading) {
    return (
      <p role="status" className="py-16 text-center text-stone-500">
        Loading
      </p>
    );
  }
  if (!user) return <Navigate to="/" replace />;
  return <OwnProfile user={user} />;
}
