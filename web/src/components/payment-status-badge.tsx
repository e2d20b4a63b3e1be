import { Badge } from "@/components/ui/badge";

/** SPEC.md §4: Completed in any case is a completed payment. */
const isCompleted = (status: string) => status.trim().toLowerCase() === "completed";

/** A payment's status: green when Completed (any case), yellow otherwise, '-' when there is none. */
export function PaymentStatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return <span className="text-muted-foreground">-</span>;
  return isCompleted(status) ? (
    <Badge variant="success">{status}</Badge>
  ) : (
    <Badge variant="outline" className="border-transparent bg-yellow-100 text-yellow-800">
      {status}
    </Badge>
  );
}
