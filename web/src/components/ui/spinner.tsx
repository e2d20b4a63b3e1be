import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/utils";

function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className="inline-flex">
      <LoaderCircle className={cn("h-6 w-6 animate-spin text-muted-foreground", className)} />
    </span>
  );
}

export { Spinner };
