import type { MouseEvent, ReactNode } from "react";
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
        <h3>How do I sign in?</h3>
        <p>
          With a Nostr identity: use a browser extension such as Alby or nos2x, paste your private key (it only signs the login here,
          in your browser), or create a new key pair in the login dialog and download the key backup card.
        </p>
        <h3>What do I need before I can post or get paid?</h3>
        <p>A Lightning address (for example you@getalby.com), set in Settings or on your profile. A regular email address will not work.</p>
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
            <strong>Pre-claim message.</strong> A worker interested in a gig sends the owner a short message.
          </li>
          <li>
            <strong>Hirer approval.</strong> The owner approves the message and enables claiming.
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
          <strong>Available</strong> (open): waiting for a worker or a hirer.
        </li>
        <li>
          <strong>Worker Claimed</strong> (claimed): a worker has the gig and can start.
        </li>
        <li>
          <strong>In Progress</strong> (in_progress): the work has started.
        </li>
        <li>
          <strong>Needs Revision</strong> (needs_revision): the hirer asked for changes to the submitted work.
        </li>
        <li>
          <strong>Work Submitted</strong> (work_submitted): waiting for the hirer to approve.
        </li>
        <li>
          <strong>Completed</strong>: approved and paid.
        </li>
        <li>
          <strong>Under Review</strong> (disputed): the administrator is settling a dispute.
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
        <p>Never share your private key. Gigstr will never ask for it.</p>
      </>
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

function jumpTo(id: string) {
  return (e: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(id);
    if (!target) return;
    e.preventDefault();
    target.scrollIntoView({ behavior: "smooth", block: "start" });
    target.querySelector<HTMLElement>("h2")?.focus({ preventScroll: true });
  };
}

export function FaqRoute() {
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
