import { useEffect } from "react";
import { useLocation } from "react-router";

/**
 * Every route change scrolls to the top (SPEC.md §2), except a link to a part of a page (/faq#nostr-keys):
 * the page that owns that part scrolls to it once it is drawn.
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
