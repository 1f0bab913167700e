// The signed-in member's own profile (SPEC.md §2 /profile): view mode and edit mode.
import { useState } from "react";
import { Link } from "react-router";
import type { OwnUser } from "../../../../domain/profile";
import { Button, buttonClasses } from "../../components/ui/button";
import { ArrowLeftIcon, PencilIcon } from "../../components/ui/icons";
import { NostrProfileCard } from "../nostr-profile/nostr-profile-card";
import { AliasCard } from "./alias-card";
import { DangerZone } from "./danger-zone";
import { PortfolioEditor } from "./portfolio-editor";
import { NostrIdentityCard, PaymentSettingsCard, PrivateKeySecurityNotice } from "./profile-cards";
import { PROFILE_EDIT_FORM_ID, ProfileEditForm } from "./profile-edit-form";
import { ProfileHeader } from "./profile-header";
import { RatingCard, StatCard, StatGrid, SuccessRateCard } from "./stat-card";

export function OwnProfile({ user }: { user: OwnUser }) {
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <div className="flex items-center justify-between gap-2">
        {editing ? (
          <>
            <h1 className="text-xl font-semibold">Edit Profile</h1>
            <div className="flex gap-2">
              <Button variant="outline" onClick={() => setEditing(false)} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" form={PROFILE_EDIT_FORM_ID} disabled={saving}>
                {saving ? "Saving..." : "Save"}
              </Button>
            </div>
          </>
        ) : (
          <>
            <Link to="/" className={buttonClasses("ghost", "md", "-ml-3")}>
              <ArrowLeftIcon />
              Back to Home
            </Link>
            <Button variant="outline" onClick={() => setEditing(true)}>
              <PencilIcon />
              Edit Profile
            </Button>
          </>
        )}
      </div>

      {editing ? (
        <ProfileEditForm user={user} onSaved={() => setEditing(false)} onPendingChange={setSaving} />
      ) : (
        <>
          <ProfileHeader user={user} />
          <StatGrid label="Reputation">
            <SuccessRateCard completedGigs={user.completedGigs} successRate={user.successRate} />
            <StatCard label="Completed" value={user.completedGigs} />
            <StatCard label="Successful" value={user.successfulGigs} />
            {/* "Rating", as on the public profile (SPEC.md §2 calls this card Reputation here; decision 024). */}
            <RatingCard averageRating={user.averageRating} totalReviews={user.totalReviews} />
          </StatGrid>
          <PortfolioEditor user={user} />
          <div className="grid gap-6 md:grid-cols-2">
            <NostrIdentityCard user={user} />
            <PaymentSettingsCard user={user} onEdit={() => setEditing(true)} />
          </div>
          <NostrProfileCard user={user} />
          {user.lightningAddress && <AliasCard user={user} />}
          <PrivateKeySecurityNotice />
          <DangerZone />
        </>
      )}
    </div>
  );
}
