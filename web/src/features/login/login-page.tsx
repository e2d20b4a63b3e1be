import { TrackingPixel } from "@/components/layout/tracking-pixel";
import { ScreenPlaceholderPage } from "@/features/placeholder/screen-placeholder-page";

/** /login: the customer login (its email-code form arrives with the customer dashboard). */
export function LoginPage() {
  return (
    <>
      <TrackingPixel />
      <ScreenPlaceholderPage title="Customer Login" />
    </>
  );
}
