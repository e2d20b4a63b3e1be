import type { ReactNode } from "react";
import { Spinner } from "@/components/ui/spinner";

/** The centred spinner of a part of a screen that is still loading. */
export function Loading() {
  return (
    <div className="flex justify-center py-8">
      <Spinner />
    </div>
  );
}

/** The red note in place of a part of a screen that could not be loaded. */
export function LoadError({ children }: { children: ReactNode }) {
  return <p className="py-8 text-center text-destructive">{children}</p>;
}
