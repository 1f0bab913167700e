import { useParams } from "react-router";
import { PublicProfile } from "../features/profile/public-profile";

/** /user/:npub: a member's public profile. */
export function UserRoute() {
  const { npub = "" } = useParams();
  return <PublicProfile key={npub} npub={npub} />;
}
