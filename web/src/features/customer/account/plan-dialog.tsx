import { useState } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { PayPalSubscriptions, type UnstoredApproval } from "./paypal-subscriptions";
import { PlansDataList } from "./plans-data-list";

/**
 * The plan chooser 'Choose Your Plan': 1150 by 600 on a large screen; on a smaller one it keeps within the
 * viewport and scrolls. Mounted (and its code, PayPal's SDK wrapper included, loaded) only once the customer
 * opens it: see `PlanChooser`.
 */
export function PlanDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  // Here, not in the content (which unmounts on close): reopening offers the same approval again, not a new one.
  const [unstored, setUnstored] = useState<UnstoredApproval | null>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        className="max-h-[90vh] min-h-[min(600px,90vh)] w-[95vw] max-w-[1150px] content-start overflow-y-auto"
      >
        <DialogHeader>
          <DialogTitle className="text-2xl">Choose Your Plan</DialogTitle>
          <DialogDescription>All plans are billed monthly.</DialogDescription>
        </DialogHeader>
        <PayPalSubscriptions unstored={unstored} setUnstored={setUnstored}>
          <PlansDataList />
        </PayPalSubscriptions>
      </DialogContent>
    </Dialog>
  );
}
