import { Link } from "react-router";
import { buttonClasses } from "../components/ui/button";

export function NotFoundRoute() {
  return (
    <div className="flex flex-col items-center gap-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="text-stone-600">There is nothing at this address.</p>
      <Link to="/" className={buttonClasses("primary")}>
        Back to Home
      </Link>
    </div>
  );
}
