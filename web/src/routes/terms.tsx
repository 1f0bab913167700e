import { StaticPage } from "../features/layout/static-page";
import {
  DISPUTE_TIMELINE,
  FEE_CHANGE_NOTICE_DAYS,
  FEE_PERCENT_PER_SIDE,
  LIABILITY_FEE_MONTHS,
  LIABILITY_FLOOR_SATS,
  MAX_PAYMENT_SATS,
  MINIMUM_AGE,
  SATS_PER_BITCOIN,
  SUSPENSION_APPEAL_DAYS,
  TERMS_CHANGE_NOTICE_DAYS,
  totalCharge,
  workerPayout,
} from "../lib/policy";

const example = 10_000;

export function TermsRoute() {
  return (
    <StaticPage title="Terms of Service" intro={<p>These terms govern your use of Gigstr, a Bitcoin-only marketplace for small paid jobs. By using Gigstr you accept them.</p>}>
      <section>
        <h2>1. Eligibility</h2>
        <p>
          You must be {MINIMUM_AGE} or older to use Gigstr. By signing in you confirm that you are at least {MINIMUM_AGE} years old and
          able to enter into a binding agreement.
        </p>
      </section>

      <section>
        <h2>2. The service</h2>
        <p>
          Gigstr connects hirers, who need work done, with workers, who do it. A gig is either a job request (Hiring Now: a hirer posts
          work and pays) or a service offering (For Hire: a worker advertises a service). The agreement about the work is between the
          hirer and the worker; Gigstr provides the marketplace, the chat, the escrow and dispute resolution.
        </p>
      </section>

      <section>
        <h2>3. Your account and your keys</h2>
        <p>
          Your account is a Nostr identity. Your username is your public key (npub) and cannot be changed. Gigstr never stores your
          private key (nsec): you alone are responsible for keeping it safe. Anyone holding it controls your account, and nobody,
          including Gigstr, can recover an account whose key is lost.
        </p>
        <p>
          You must set a Lightning address before posting gigs or receiving payments. Payouts and refunds are sent to the Lightning
          address on your account at the time of payment; make sure it is correct.
        </p>
      </section>

      <section>
        <h2>4. Payments, escrow and fees</h2>
        <p>
          All amounts are in satoshis (sats); {SATS_PER_BITCOIN.toLocaleString()} sats = 1 bitcoin. Gig payments range from 1 to{" "}
          {MAX_PAYMENT_SATS.toLocaleString()} sats.
        </p>
        <ul>
          <li>
            <strong>Platform fee: {FEE_PERCENT_PER_SIDE}% per side.</strong> The hirer pays the payment plus the fee; the worker receives
            the payment minus the fee. The fee is rounded up per gig (the ceiling of the payment times 0.025).
          </li>
          <li>
            Example: a {example.toLocaleString()} sat gig costs the hirer {totalCharge(example).toLocaleString()} sats and the
            worker receives {workerPayout(example).toLocaleString()} sats. For a service offering, the poster sees the fee
            deducted from the price.
          </li>
          <li>
            <strong>Escrow.</strong> The hirer&apos;s payment is held in escrow by the platform until the hirer approves the work, and
            is then released to the worker. Escrow moves from pending to funded, then to released or refunded.
          </li>
          <li>
            <strong>Cancellation.</strong> A gig can be cancelled while it is pending, open, pending payment or claimed. Cancelling
            refunds 100% of what the hirer paid, including the fee.
          </li>
          <li>
            <strong>Automatic release.</strong> If the hirer neither approves nor disputes submitted work within 14 days, the payment is
            released to the worker as if approved.
          </li>
          <li>Lightning network fees are typically 1-10 sats.</li>
        </ul>
        <p>We give at least {FEE_CHANGE_NOTICE_DAYS} days&apos; notice before any change to the fees.</p>
      </section>

      <section>
        <h2>5. Acceptable use</h2>
        <p>You may not use Gigstr for, and gigs, profiles and messages must not contain:</p>
        <ul>
          <li>illegal content (drugs, weapons, trafficking, etc.);</li>
          <li>harassment, abuse or threatening behavior;</li>
          <li>sexual content or services;</li>
          <li>scams, fraud or deceptive practices;</li>
          <li>false credentials or a misleading portfolio;</li>
          <li>shitcoinery: altcoins, NFTs and crypto scams (Gigstr is Bitcoin-only);</li>
          <li>spam or excessive advertising;</li>
          <li>hate speech or discriminatory content;</li>
          <li>doxxing or privacy violations;</li>
          <li>platform manipulation or sybil attacks.</li>
        </ul>
        <p>Any member may report a gig. Reports are reviewed by the administrator, who may remove gigs that break these rules.</p>
      </section>

      <section>
        <h2>6. Disputes</h2>
        <p>When submitted work is disputed, the escrowed payment stays in escrow and this timeline applies:</p>
        <ol>
          {DISPUTE_TIMELINE.map((step) => (
            <li key={step.when}>
              <strong>{step.when}:</strong> {step.what}
            </li>
          ))}
        </ol>
        <p>The administrator may refund the hirer (the gig is cancelled), pay the worker, or split the payment between them.</p>
        <p>Gig chats are monitored by the platform administrator, who may read them and post in them to help settle disputes.</p>
      </section>

      <section>
        <h2>7. Suspension and termination</h2>
        <p>
          We may suspend accounts that break these terms. You have {SUSPENSION_APPEAL_DAYS} days from a suspension to appeal it. You may
          delete your account at any time from your profile, except while you have gigs with escrow in progress.
        </p>
      </section>

      <section>
        <h2>8. Limitation of liability</h2>
        <p>
          Gigstr is provided as is. Our total liability to you is limited to the greater of the platform fees you paid in the{" "}
          {LIABILITY_FEE_MONTHS} months before the claim or {LIABILITY_FLOOR_SATS.toLocaleString()} satoshis. We are not liable for the
          quality of work delivered by members, for losses caused by a lost private key or a wrong Lightning address, or for outages of
          the Lightning network or of your wallet provider.
        </p>
      </section>

      <section>
        <h2>9. Changes to these terms</h2>
        <p>
          We give at least {TERMS_CHANGE_NOTICE_DAYS} days&apos; notice before changes to these terms take effect. Fee changes follow
          the {FEE_CHANGE_NOTICE_DAYS}-day notice above.
        </p>
      </section>
    </StaticPage>
  );
}
