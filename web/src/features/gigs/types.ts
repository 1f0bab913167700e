// The gig as the web app reads it (SPEC.md §3). The gigs screens may extend this.

export type GigType = "job_request" | "service_offering";

export interface GigPoster {
  username: string;
  displayName: string | null;
  profilePicture: string | null;
  completedGigs: number;
  successRate: number;
}

export interface Gig {
  id: string;
  title: string;
  description: string;
  category: string;
  gigType: GigType;
  status: string;
  payment: number;
  timeframe: number;
  deadline?: string | null;
  createdAt: string;
  claimedAt?: string | null;
  submittedAt?: string | null;
  hirerId: string | null;
  workerId: string | null;
  escrowStatus?: "pending" | "funded" | "released" | "refunded" | null;
  poster?: GigPoster;
}
