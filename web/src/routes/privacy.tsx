import { StaticPage } from "../features/layout/static-page";
import { TERMS_CHANGE_NOTICE_DAYS } from "../lib/policy";

export function PrivacyRoute() {
  return (
    <StaticPage title="Privacy Policy" intro={<p>Gigstr keeps as little about you as a marketplace with escrow can. This page says what, why, and who sees it.</p>}>
      <section>
        <h2>Your private key</h2>
        <p>
          Gigstr never receives or stores your private key (nsec). You log in by signing a one-time challenge, in your browser or in a
          Nostr extension. A key you type or generate stays in the page&apos;s memory, and the key backup PDF is created on your own
          device.
        </p>
      </section>

      <section>
        <h2>What we store</h2>
        <ul>
          <li>Your Nostr public key (npub), which is your username.</li>
          <li>What you add to your profile: display name, profile picture URL, bio, NIP-05 identifier, Lightning address and alias.</li>
          <li>Your gigs, interest messages, chat messages, delivered files, reviews, portfolio, reports and suggestions.</li>
          <li>Payment records: invoices, escrow movements, payouts and refunds, kept to run escrow and settle disputes.</li>
          <li>Your sessions, as a hash of the session token only.</li>
        </ul>
      </section>

      <section>
        <h2>In your browser</h2>
        <p>
          Your session token is kept in your browser&apos;s local storage under the key sessionToken, and sessions expire after 30 days.
          Logging out removes it. Gigstr uses no advertising or tracking cookies and loads no third-party scripts; generated avatars are
          drawn in your browser.
        </p>
      </section>

      <section>
        <h2>Who sees what</h2>
        <ul>
          <li>Anyone: your public profile (name, picture, bio, NIP-05, reputation, reviews, portfolio) and the gigs you post.</li>
          <li>The other party of a gig: your chat messages and the files you deliver for that gig.</li>
          <li>
            The platform administrator: gig chats, reports, suggestions and disputes, to keep the marketplace safe and to settle
            disputes. Chats are monitored.
          </li>
          <li>Your Lightning address is used only to pay you; it is not shown on your public profile.</li>
        </ul>
      </section>

      <section>
        <h2>Payments</h2>
        <p>
          Payments travel over the Lightning network. Your wallet provider sees the payments it receives for you. When someone pays your
          Gigstr alias, we ask your own provider for the invoice and pass it on; the money goes straight to your wallet.
        </p>
      </section>

      <section>
        <h2>Deleting your account</h2>
        <p>
          When you terminate your account, your profile is erased and your sessions end. Gigs, reviews and messages others are part of
          stay, shown under a placeholder name, and your alias stays reserved so that nobody else can receive payments meant for you.
          Accounts with gigs whose escrow is in progress cannot be deleted until those gigs are completed or cancelled.
        </p>
      </section>

      <section>
        <h2>Changes</h2>
        <p>We give at least {TERMS_CHANGE_NOTICE_DAYS} days&apos; notice before changes to this policy take effect.</p>
      </section>
    </StaticPage>
  );
}
