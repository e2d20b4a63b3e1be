import { lazy, Suspense } from "react";
import { Button } from "@/components/ui/button";
import { useDialogOnDemand } from "@/hooks/use-dialog-on-demand";

// The dialog (Radix Dialog, the plan cards and PayPal's buttons) is its own chunk: most visits
// never open it, and the main bundle stays smaller.
const PlanDialog = lazy(() => import("./plan-dialog").then((m) => ({ default: m.PlanDialog })));

/** 'Upgrade / Change Plans' and, once pressed, the plan dialog. */
export function PlanChooser() {
  const { open, setOpen, mounted, triggerRef, show, returnFocus } = useDialogOnDemand();

  return (
    <>
      <Button ref={triggerRef} aria-haspopup="dialog" onClick={show}>
        Upgrade / Change Plans
      </Button>
      {mounted && (
        <Suspense fallback={null}>
          <PlanDialog open={open} onOpenChange={setOpen} onCloseAutoFocus={returnFocus} />
        </Suspense>
      )}
    </>
  );
}
