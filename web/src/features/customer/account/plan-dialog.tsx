import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { PayPalSubscriptions } from "./paypal-subscriptions";
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
        <PayPalSubscriptions>
          <PlansDataList />
        </PayPalSubscriptions>
      </DialogContent>
    </Dialog>
  );
}
