import { WarningMark } from "@/components/warning-mark";

export const UNVERIFIED_EMAIL_TEXT = "Email nicht verifiziert";

/** The warning beside an unverified email, explained on hover or focus. */
export function UnverifiedMark() {
  return <WarningMark text={UNVERIFIED_EMAIL_TEXT} className="text-yellow-600" />;
}
