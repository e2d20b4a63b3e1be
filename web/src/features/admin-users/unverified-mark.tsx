import { TriangleAlert } from "lucide-react";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

export const UNVERIFIED_EMAIL_TEXT = "Email nicht verifiziert";

/** The warning beside an unverified email, explained on hover or focus. */
export function UnverifiedMark() {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          role="img"
          tabIndex={0}
          aria-label={UNVERIFIED_EMAIL_TEXT}
          className="inline-flex rounded-sm text-yellow-600 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <TriangleAlert className="h-4 w-4" aria-hidden="true" />
        </span>
      </TooltipTrigger>
      <TooltipContent>{UNVERIFIED_EMAIL_TEXT}</TooltipContent>
    </Tooltip>
  );
}
