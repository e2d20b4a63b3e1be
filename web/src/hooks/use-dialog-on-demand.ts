/**
 * @module A dialog whose code is a chunk of its own (React.lazy), loaded when the dialog is first opened. Such a
 * dialog has no Radix trigger, so this hook gives its button the focus back on close, as a trigger would have it.
 */
import { useRef, useState } from "react";

export function useDialogOnDemand() {
  const [open, setOpen] = useState(false);
  // From the first opening on the dialog stays mounted, so Radix closes it (animation, focus) as usual.
  const [mounted, setMounted] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);

  return {
    open,
    setOpen,
    mounted,
    /** For the button's ref. */
    triggerRef,
    /** For the button's onClick. */
    show: () => {
      setMounted(true);
      setOpen(true);
    },
    /** For the dialog content's `onCloseAutoFocus`. */
    returnFocus: (event: Event) => {
      event.preventDefault();
      triggerRef.current?.focus();
    },
  };
}
