import { useSiteConfig } from "@/queries/site-config";

/** The marketing 1x1 image of the register and login pages; nothing when TRACKING_PIXEL_URL is not configured. */
export function TrackingPixel() {
  const src = useSiteConfig().data?.trackingPixelUrl;
  if (!src) return null;
  return <img src={src} width={1} height={1} alt="" aria-hidden="true" className="absolute h-px w-px opacity-0" />;
}
