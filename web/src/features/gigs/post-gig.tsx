// Placeholder for the signed-in Post tab; the gigs screens replace it with the Post New Gig form.
// Posting needs a Lightning address: the settings dialog (useSettingsDialog) is where one is set.
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { BoltIcon } from "../../components/ui/icons";
import { useAuth } from "../auth/auth-context";
import { useSettingsDialog } from "../profile/settings-context";

export function PostGig() {
  const { user } = useAuth();
  const { openSettings } = useSettingsDialog();
  return (
    <section aria-labelledby="post-heading" className="flex flex-col gap-6">
      <h1 id="post-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
        Post New Gig
      </h1>
      <Card>
        <CardHeader>
          <CardTitle>Post New Gig</CardTitle>
          <CardDescription>Describe the work, set a price in sats and a timeframe. Payment is held in escrow.</CardDescription>
        </CardHeader>
        <CardContent>
          {user?.lightningAddress ? (
            <p className="text-sm text-stone-600">Payouts for your gigs go to {user.lightningAddress}.</p>
          ) : (
            <div className="flex flex-col items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
              <p>A Lightning address is required before posting. Set one in Settings.</p>
              <Button variant="outline" size="sm" onClick={openSettings}>
                <BoltIcon />
                Open Settings
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
