import { lazy, Suspense, useState } from "react";
import { Button } from "@/components/ui/button";

// The dialog (Radix Dialog, the plan cards and PayPal's buttons) is its own chunk: most visits
// never open it, and the main bundle stays smaller.
const PlanDialog = lazy(() => import("./plan-dialog").then((m) => ({ default: m.PlanDialog })));

/** 'Upgrade / Change Plans' and, once pressed, the plan dialog. */
export function PlanChooser() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);

  return (
    <>
      <Button
        aria-haspopup="dialog"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        Upgrade / Change Plans
      </Button>
      {requested && (
        <Suspense fallback={null}>
          <PlanDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
