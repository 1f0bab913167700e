import { Link } from "react-router";

export function Footer() {
  return (
    <footer className="mt-16 border-t border-stone-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-stone-600 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div className="flex flex-col gap-1">
          <p className="font-semibold text-stone-900">Gigstr: the Bitcoin-only gig marketplace</p>
          <p>Platform fee: 2.5% per side. Payments in sats, held in escrow, paid over Lightning.</p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex gap-5">
            <li>
              <Link to="/faq" className="hover:text-brand-700 hover:underline">
                FAQ
              </Link>
            </li>
            <li>
              <Link to="/terms" className="hover:text-brand-700 hover:underline">
                Terms
              </Link>
            </li>
            <li>
              <Link to="/privacy" className="hover:text-brand-700 hover:underline">
                Privacy
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
