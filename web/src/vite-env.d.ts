/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Address of the 1x1 tracking image on the register and login pages; unset means no pixel. */
  readonly VITE_TRACKING_PIXEL_URL?: string;
}
