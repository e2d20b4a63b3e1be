/**
 * @module The toast store (shadcn's use-toast): `toast()` works from anywhere, `useToast()` follows the list.
 * Dismissing closes a toast and schedules its removal after `TOAST_REMOVE_DELAY`.
 */
import { useEffect, useState } from "react";
import {
  TOAST_REMOVE_DELAY,
  toastReducer,
  type ToastAction,
  type ToastState,
  type ToasterToast,
} from "@/lib/toast-reducer";

let memoryState: ToastState = { toasts: [] };
const listeners = new Set<(state: ToastState) => void>();
const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(toastId: string) {
  if (removeTimeouts.has(toastId)) return;
  const timeout = setTimeout(() => {
    removeTimeouts.delete(toastId);
    dispatch({ type: "REMOVE_TOAST", toastId });
  }, TOAST_REMOVE_DELAY);
  removeTimeouts.set(toastId, timeout);
}

export function dispatch(action: ToastAction) {
  if (action.type === "DISMISS_TOAST") {
    const ids = action.toastId === undefined ? memoryState.toasts.map((t) => t.id) : [action.toastId];
    ids.forEach(scheduleRemoval);
  }
  memoryState = toastReducer(memoryState, action);
  listeners.forEach((listener) => listener(memoryState));
}

let count = 0;
function nextId() {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return count.toString();
}

export type ToastInput = Omit<ToasterToast, "id">;

export function toast(props: ToastInput) {
  const id = nextId();
  const update = (next: ToastInput) => dispatch({ type: "UPDATE_TOAST", toast: { ...next, id } });
  const dismiss = () => dispatch({ type: "DISMISS_TOAST", toastId: id });

  dispatch({
    type: "ADD_TOAST",
    toast: {
      ...props,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss();
      },
    },
  });
  return { id, dismiss, update };
}

export function useToast() {
  const [state, setState] = useState<ToastState>(memoryState);

  useEffect(() => {
    listeners.add(setState);
    return () => {
      listeners.delete(setState);
    };
  }, []);

  return {
    ...state,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: "DISMISS_TOAST", toastId }),
  };
}
