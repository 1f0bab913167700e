// /gigs/:id, linked from public-profile gig cards. Placeholder until the gig screens provide one: it offers
// the gig in the main page's Active tab, where the details modal opens.
import { Link, useParams } from "react-router";
import { buttonClasses } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { shortId } from "../lib/format";

export function GigRoute() {
  const { id = "" } = useParams();
  return (
    <Card className="mx-auto flex max-w-md flex-col items-center gap-4 p-8 text-center">
      <h1 className="text-xl font-semibold">Gig {shortId(id)}</h1>
      <p className="text-sm text-stone-600">Gig details open from the main page.</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Link to={`/?tab=active&gigId=${encodeURIComponent(id)}`} className={buttonClasses("primary")}>
          View Details
        </Link>
        <Link to="/" className={buttonClasses("outline")}>
          Back to Home
        </Link>
      </div>
    </Card>
  );
}
