import { describe, expect, it } from "vitest";
import { TOAST_LIMIT, toastReducer, type ToasterToast } from "./toast-reducer";

const toast = (id: string, title = `Toast ${id}`): ToasterToast => ({ id, title, open: true });

describe("toastReducer", () => {
  it("shows at most one toast, and a new one replaces the older", () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = toastReducer({ toasts: [] }, { type: "ADD_TOAST", toast: toast("1") });
    state = toastReducer(state, { type: "ADD_TOAST", toast: toast("2") });

    expect(state.toasts.map((t) => t.id)).toEqual(["2"]);
  });

  it("updates the toast with the same id and leaves others alone", () => {
    const state = toastReducer(
      { toasts: [toast("1"), toast("2")] },
      { type: "UPDATE_TOAST", toast: { id: "2", title: "Changed", variant: "destructive" } },
    );

    expect(state.toasts).toEqual([toast("1"), { ...toast("2"), title: "Changed", variant: "destructive" }]);
  });

  it("dismisses one toast by id, or every toast without an id, by closing it", () => {
    const one = toastReducer({ toasts: [toast("1"), toast("2")] }, { type: "DISMISS_TOAST", toastId: "1" });
    expect(one.toasts.map((t) => t.open)).toEqual([false, true]);

    const all = toastReducer({ toasts: [toast("1"), toast("2")] }, { type: "DISMISS_TOAST" });
    expect(all.toasts.map((t) => t.open)).toEqual([false, false]);
  });

  it("removes one toast by id, or every toast without an id", () => {
    expect(toastReducer({ toasts: [toast("1"), toast("2")] }, { type: "REMOVE_TOAST", toastId: "1" }).toasts).toEqual([
      toast("2"),
    ]);
    expect(toastReducer({ toasts: [toast("1")] }, { type: "REMOVE_TOAST" }).toasts).toEqual([]);
  });
});
