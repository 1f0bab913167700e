import { useEffect, type MouseEvent, type ReactNode } from "react";
import { useLocation } from "react-router";
import { StaticPage } from "../features/layout/static-page";
import {
  DEFAULT_TIMEFRAME_DAYS,
  DISPUTE_TIMELINE,
  FEE_PERCENT_PER_SIDE,
  MAX_ATTACHMENT_MB,
  MAX_PAYMENT_SATS,
  MAX_TIMEFRAME_DAYS,
  SATS_PER_BITCOIN,
  totalCharge,
  workerPayout,
} from "../lib/policy";

const example = 10_000;

/** One word for each thing, used the same way on every screen (issue 26). */
export const GLOSSARY: ReadonlyArray<readonly [string, string]> = [
  ["Gig", "A small paid job. A Hiring Now gig is work someone wants done; a For Hire gig is a service someone offers."],
  ["Hirer", "The person who pays for a gig and approves the work."],
  ["Worker", "The person who does the work and receives the payment."],
  ["Sats", `The smallest unit of bitcoin: ${SATS_PER_BITCOIN.toLocaleString()} sats make 1 bitcoin. Every price here is in sats.`],
  ["Lightning", "Bitcoin's network for fast, small payments. You pay and get paid with a Lightning wallet."],
  ["Lightning address", "An address like you@getalby.com where your wallet receives payments. You need one to post or to get paid."],
  ["Invoice", "A one-time payment request from Lightning. Pay it from your wallet by opening it, copying it or scanning its QR code. It expires after a while."],
  ["Escrow", "Where the hirer's payment waits after it is paid: released to the worker when the hirer approves, refunded if the gig is cancelled."],
  ["Claim", "Taking on a gig as its worker, once the hirer has approved your interest message."],
  ["Withdraw", "A worker giving up a gig they claimed, before starting work: the gig is cancelled and the hirer is refunded in full."],
  ["Dispute", "Asking the administrator to settle disagreement about submitted work. The sats stay in escrow meanwhile."],
  ["Nostr key", "Your account, kept by you: a public key (npub) that others see and a private key (nsec) that proves it is you."],
  ["Log in", "Proving you hold your Nostr key, with an extension, with the key itself, or with a key created here."],
  ["Alias", "A short Lightning address on Gigstr that forwards payments to your own Lightning address."],
];

const SECTIONS: { id: string; title: string; body: ReactNode }[] = [
  {
    id: "getting-started",
    title: "Getting started",
    body: (
      <>
        <h3>What is Gigstr?</h3>
        <p>
          A marketplace for small paid tasks, priced in sats and paid over Lightning. Hirers post work (Hiring Now), workers advertise
          services (For Hire), and the payment waits in escrow until the hirer approves the work.
        </p>
        <h3>How do I log in?</h3>
        <p>
          With a Nostr key instead of an email and a password: see{" "}
          <a href="#nostr-keys" onClick={jumpTo("nostr-keys")} className="font-medium text-brand-800 underline">
            Your Nostr key
          </a>{" "}
          below. If you have never heard of
          Nostr, choose Create New in the login dialog; it takes a minute.
        </p>
        <h3>What do I need before I can post or get paid?</h3>
        <p>A Lightning address (for example you@getalby.com), set in Settings or on your profile. A regular email address will not work.</p>
      </>
    ),
  },
  {
    id: "nostr-keys",
    title: "Your Nostr key",
    body: (
      <>
        <h3>What is a Nostr key?</h3>
        <p>
          A Nostr key is your account, kept by you: like a username and a password in one, with no email and nothing to reset. It comes as
          a pair. The <strong>public key</strong> (it starts with npub) is your name that others see. The <strong>private key</strong> (it
          starts with nsec) proves it is you. The same key works on other Nostr apps too.
        </p>
        <h3>What do the three ways to log in do?</h3>
        <ul>
          <li>
            <strong>Extension</strong>: a browser extension such as Alby or nos2x holds your key and signs a one-time login challenge.
            Gigstr never sees the key. Shown first when this browser has one.
          </li>
          <li>
            <strong>With Key</strong>: you paste your private key and this browser uses it to sign the login challenge, right here on your
            device. The key stays in this browser: it is never sent to Gigstr or anyone else, and it is not stored after you log in.
          </li>
          <li>
            <strong>Create New</strong>: makes a brand-new key pair in this browser. Download the key backup card (or copy the private key
            somewhere safe) and tick &quot;I saved my key&quot; before you log in with it: without the private key nobody, not even Gigstr,
            can get you back into your account.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "how-it-works",
    title: "How a gig works",
    body: (
      <>
        <ol>
          <li>
            <strong>Pre-claim message.</strong> A worker interested in a gig sends the hirer a short message.
          </li>
          <li>
            <strong>Hirer approval.</strong> The hirer approves the message and enables claiming.
          </li>
          <li>
            <strong>Claim.</strong> The approved worker claims the gig (for a service offering, the hirer hires the worker).
          </li>
          <li>
            <strong>Hirer funds escrow.</strong> The hirer pays the Lightning invoice; the sats are held in escrow.
          </li>
          <li>
            <strong>Work.</strong> The worker starts work and talks with the hirer in the gig chat.
          </li>
          <li>
            <strong>Submission.</strong> The worker submits the work, with files if needed (up to {MAX_ATTACHMENT_MB} MB each).
          </li>
          <li>
            <strong>Approval and release.</strong> The hirer approves, and the payment is released to the worker&apos;s Lightning address.
          </li>
        </ol>
        <p>If the hirer and the worker disagree about submitted work, either of them can raise a dispute.</p>
      </>
    ),
  },
  {
    id: "statuses",
    title: "Gig statuses",
    body: (
      <ul>
        <li>
          <strong>Pending payment</strong>: waiting for the escrow invoice to be paid.
        </li>
        <li>
          <strong>Available</strong>: waiting for a worker or a hirer.
        </li>
        <li>
          <strong>Worker Claimed</strong>: a worker has the gig and can start.
        </li>
        <li>
          <strong>In Progress</strong>: the work has started.
        </li>
        <li>
          <strong>Needs Revision</strong>: the hirer asked for changes to the submitted work.
        </li>
        <li>
          <strong>Work Submitted</strong>: waiting for the hirer to approve.
        </li>
        <li>
          <strong>Completed</strong>: approved and paid.
        </li>
        <li>
          <strong>Under Review</strong>: the administrator is settling a dispute.
        </li>
        <li>
          <strong>Cancelled</strong>: stopped before completion; any escrow was refunded.
        </li>
      </ul>
    ),
  },
  {
    id: "fees",
    title: "Fees and payments",
    body: (
      <>
        <p>
          The platform fee is <strong>{FEE_PERCENT_PER_SIDE}% per side</strong>, rounded up per gig. The hirer pays the payment plus the
          fee, the worker receives the payment minus the fee. A {example.toLocaleString()} sat gig costs the hirer{" "}
          {totalCharge(example).toLocaleString()} sats and the worker receives {workerPayout(example).toLocaleString()}{" "}
          sats.
        </p>
        <p>
          Gigs pay from 1 to {MAX_PAYMENT_SATS.toLocaleString()} sats, with a timeframe of 1 to {MAX_TIMEFRAME_DAYS} days ({DEFAULT_TIMEFRAME_DAYS}{" "}
          by default). {SATS_PER_BITCOIN.toLocaleString()} sats make 1 bitcoin. Lightning network fees are typically 1-10 sats.
        </p>
      </>
    ),
  },
  {
    id: "escrow",
    title: "Escrow and cancelling",
    body: (
      <>
        <p>
          The hirer&apos;s payment is held in escrow from the moment the invoice is paid until the work is approved, then released to the
          worker. Nobody can run off with it.
        </p>
        <p>
          A gig can be cancelled while it is pending, open, pending payment or claimed. Cancelling refunds 100% of the payment including
          the fee, to the hirer&apos;s Lightning address.
        </p>
      </>
    ),
  },
  {
    id: "disputes",
    title: "Disputes",
    body: (
      <>
        <p>Either party can raise a dispute on submitted work. The sats stay in escrow while it is settled:</p>
        <ol>
          {DISPUTE_TIMELINE.map((step) => (
            <li key={step.when}>
              <strong>{step.when}:</strong> {step.what}
            </li>
          ))}
        </ol>
      </>
    ),
  },
  {
    id: "alias",
    title: "Your Gigstr alias",
    body: (
      <p>
        Once you have a Lightning address, you can claim a short alias address on your profile. Payments to it are forwarded to your own
        Lightning address. An alias can be set only once and cannot be changed afterwards.
      </p>
    ),
  },
  {
    id: "safety",
    title: "Safety and reporting",
    body: (
      <>
        <p>
          Report any gig that breaks the rules (illegal content, scams, harassment, altcoins and NFTs, spam and so on) with the report
          button on the gig. Gig chats are monitored by the platform administrator.
        </p>
        <p>
          Never share your private key with anyone. Gigstr never receives it: the With Key login uses it only inside your browser, to sign
          the login challenge. Nobody from Gigstr will ever ask you for it.
        </p>
      </>
    ),
  },
  {
    id: "glossary",
    title: "Glossary",
    body: (
      <dl className="grid gap-3">
        {GLOSSARY.map(([term, meaning]) => (
          <div key={term}>
            <dt className="font-semibold text-stone-900">{term}</dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
    ),
  },
  {
    id: "account",
    title: "Your account",
    body: (
      <>
        <h3>I lost my private key.</h3>
        <p>Gigstr never stores it, so it cannot be recovered. Keep your key backup card somewhere safe and offline.</p>
        <h3>How do I delete my account?</h3>
        <p>
          On your profile, in the Danger Zone, choose Terminate Account and confirm twice. Accounts with gigs whose escrow is in progress
          cannot be deleted until those gigs are completed or cancelled.
        </p>
      </>
    ),
  },
];

function showSection(id: string, behavior: ScrollBehavior): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  target.scrollIntoView({ behavior, block: "start" });
  target.querySelector<HTMLElement>("h2")?.focus({ preventScroll: true });
  return true;
}

function jumpTo(id: string) {
  return (e: MouseEvent<HTMLAnchorElement>) => {
    if (showSection(id, "smooth")) e.preventDefault();
  };
}

export function FaqRoute() {
  // A link from elsewhere to one section (the login dialog's "What is a Nostr key?" → /faq#nostr-keys).
  const { hash } = useLocation();
  useEffect(() => {
    if (hash) showSection(decodeURIComponent(hash.slice(1)), "auto");
  }, [hash]);
  return (
    <StaticPage title="Frequently Asked Questions" intro={<p>How Gigstr works, what it costs, and what happens when things go wrong.</p>}>
      <nav aria-labelledby="faq-nav-heading" className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
        <h2 id="faq-nav-heading" className="!text-sm font-semibold tracking-wide text-stone-500 uppercase">
          Quick navigation
        </h2>
        <ul className="mt-3 grid !list-none gap-1 sm:grid-cols-2">
          {SECTIONS.map((section) => (
            <li key={section.id} className="!ml-0">
              <a href={`#${section.id}`} onClick={jumpTo(section.id)} className="font-medium text-brand-700 hover:underline">
                {section.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {SECTIONS.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
          <h2 id={`${section.id}-heading`} tabIndex={-1} className="focus:outline-none">
            {section.title}
          </h2>
          {section.body}
        </section>
      ))}
    </StaticPage>
  );
}
