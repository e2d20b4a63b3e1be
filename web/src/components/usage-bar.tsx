import { useId } from "react";
import { Progress } from "@/components/ui/progress";
import { usageMeter } from "@/lib/usage-meter";

export interface UsageBarProps {
  label: string;
  used: number;
  limit: number | null;
  /** A line under the bar (e.g. what was counted but not billed). */
  note?: string;
}

/** One usage line: label, 'used / limit', the percentage and the bar. */
export function UsageBar({ label, used, limit, note }: UsageBarProps) {
  const { percent, limitLabel } = usageMeter(used, limit);
  const labelId = useId();

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span id={labelId} className="font-medium">
          {label}
        </span>
        <span className="text-sm text-muted-foreground">
          {used} / {limitLabel} ({percent}%)
        </span>
      </div>
      <Progress value={percent} aria-labelledby={labelId} />
      {note && <p className="text-xs text-muted-foreground">{note}</p>}
    </div>
  );
}
