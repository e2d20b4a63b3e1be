import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOAST_REMOVE_DELAY } from "@/lib/toast-reducer";
import { dispatch, toast, useToast } from "./use-toast";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  act(() => dispatch({ type: "REMOVE_TOAST" }));
  vi.useRealTimers();
});

describe("toast store", () => {
  it("adds an open toast that the hook sees, replacing the previous one", () => {
    const { result } = renderHook(() => useToast());

    act(() => {
      toast({ title: "First" });
      toast({ title: "Second", variant: "destructive" });
    });

    expect(result.current.toasts).toHaveLength(1);
    expect(result.current.toasts[0]).toMatchObject({ title: "Second", variant: "destructive", open: true });
  });

  it("updates a toast through the handle toast() returns", () => {
    const { result } = renderHook(() => useToast());

    act(() => {
      toast({ title: "Saving" }).update({ title: "Saved" });
    });

    expect(result.current.toasts[0]?.title).toBe("Saved");
  });

  it("closes a dismissed toast at once and removes it after the removal delay", () => {
    const { result } = renderHook(() => useToast());
    let handle: ReturnType<typeof toast> | undefined;
    act(() => {
      handle = toast({ title: "Bye" });
    });

    act(() => handle?.dismiss());
    expect(result.current.toasts[0]).toMatchObject({ title: "Bye", open: false });

    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1));
    expect(result.current.toasts).toHaveLength(1);

    act(() => vi.advanceTimersByTime(1));
    expect(result.current.toasts).toHaveLength(0);
  });

  it("dismisses when Radix reports the toast closed (timeout, swipe, Escape or close button)", () => {
    const { result } = renderHook(() => useToast());
    act(() => {
      toast({ title: "Auto" });
    });

    act(() => result.current.toasts[0]?.onOpenChange?.(false));

    expect(result.current.toasts[0]?.open).toBe(false);
  });
});
