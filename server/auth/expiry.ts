/**
 * Whether the caller's service term has expired (spec 4.2): its provider's term for every provider-side account,
 * and its own school's term for a school. The platform's operators have no term.
 */
import { businessDay, daysLeft } from "../../common/term";
import type { Authority } from "./authority";

function ended(endTime: string | undefined, today: string): boolean {
  if (!endTime) return false;
  const days = daysLeft(endTime, today);
  return days !== null && days <= 0;
}

export function termExpired(auth: Authority, now: Date): boolean {
  if (auth.userType === "system") return false;
  const today = businessDay(now);
  return ended(auth.provider?.endTime, today) || (auth.userType === "school" && ended(auth.school?.endtime, today));
}
