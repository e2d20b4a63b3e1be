/** The marketing 1x1 image of the register and login pages; nothing when VITE_TRACKING_PIXEL_URL is unset. */
export function TrackingPixel() {
  const src = import.meta.env.VITE_TRACKING_PIXEL_URL;
  if (!src) return null;
  return <img src={src} width={1} height={1} alt="" aria-hidden="true" className="absolute h-px w-px opacity-0" />;
}
