import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/components/ui/button";

interface PagerProps {
  offset: number;
  limit: number;
  total: number;
  onOffsetChange: (offset: number) => void;
}

/** "1–20 of 135" with Previous and Next, for a list the server pages. */
export function Pager({ offset, limit, total, onOffsetChange }: PagerProps) {
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  return (
    <div className="flex items-center justify-end gap-2 text-sm text-muted-foreground">
      <span>
        {total === 0 ? 0 : offset + 1}–{last} of {total}
      </span>
      <Button
        type="button"
        variant="outline"
        size="sm"
        aria-label="Previous page"
        disabled={offset === 0}
        onClick={() => onOffsetChange(Math.max(0, offset - limit))}
      >
        <ChevronLeft aria-hidden="true" />
      </Button>
      <Button
        type="button"
        variant="outline"
        size="sm"
        aria-label="Next page"
        disabled={last >= total}
        onClick={() => onOffsetChange(offset + limit)}
      >
        <ChevronRight aria-hidden="true" />
      </Button>
    </div>
  );
}
