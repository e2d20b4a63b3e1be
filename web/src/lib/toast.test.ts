import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dispatch, toast, TOAST_LIMIT, TOAST_REMOVE_DELAY, toastReducer, useToast, type ToasterToast } from "./toast";

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

const toastOf = (id: string, title = `Toast ${id}`): ToasterToast => ({ id, title, open: true });

describe("toastReducer", () => {
  it("shows at most one toast, and a new one replaces the older", () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = toastReducer({ toasts: [] }, { type: "ADD_TOAST", toast: toastOf("1") });
    state = toastReducer(state, { type: "ADD_TOAST", toast: toastOf("2") });

    expect(state.toasts.map((t) => t.id)).toEqual(["2"]);
  });

  it("updates the toast with the same id and leaves others alone", () => {
    const state = toastReducer(
      { toasts: [toastOf("1"), toastOf("2")] },
      { type: "UPDATE_TOAST", toast: { id: "2", title: "Changed", variant: "destructive" } },
    );

    expect(state.toasts).toEqual([toastOf("1"), { ...toastOf("2"), title: "Changed", variant: "destructive" }]);
  });

  it("dismisses one toast by id, or every toast without an id, by closing it", () => {
    const one = toastReducer({ toasts: [toastOf("1"), toastOf("2")] }, { type: "DISMISS_TOAST", toastId: "1" });
    expect(one.toasts.map((t) => t.open)).toEqual([false, true]);

    const all = toastReducer({ toasts: [toastOf("1"), toastOf("2")] }, { type: "DISMISS_TOAST" });
    expect(all.toasts.map((t) => t.open)).toEqual([false, false]);
  });

  it("removes one toast by id, or every toast without an id", () => {
    expect(
      toastReducer({ toasts: [toastOf("1"), toastOf("2")] }, { type: "REMOVE_TOAST", toastId: "1" }).toasts,
    ).toEqual([toastOf("2")]);
    expect(toastReducer({ toasts: [toastOf("1")] }, { type: "REMOVE_TOAST" }).toasts).toEqual([]);
  });
});
