// Placeholder: the admin panel (PIN keypad, dashboard, gigs, reports, suggestions, disputes) replaces it.
import { Link } from "react-router";
import { buttonClasses } from "../components/ui/button";

export function AdminRoute() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-bold">Admin Panel</h1>
      <p className="text-stone-600">The admin panel is not available yet.</p>
      <Link to="/" className={buttonClasses("outline")}>
        Back to Home
      </Link>
    </main>
  );
}
