import { TriangleAlert } from "lucide-react";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";

/**
 * A focusable warning icon named `text`, with `text` as its tooltip on hover or focus; `className` sets its
 * colour. The screen provides the `TooltipProvider`.
 */
export function WarningMark({ text, className }: { text: string; className: string }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          role="img"
          tabIndex={0}
          aria-label={text}
          className={cn(
            "inline-flex rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
            className,
          )}
        >
          <TriangleAlert className="h-4 w-4" aria-hidden="true" />
        </span>
      </TooltipTrigger>
      <TooltipContent>{text}</TooltipContent>
    </Tooltip>
  );
}
