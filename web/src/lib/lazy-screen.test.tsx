import { act, render, screen } from "@testing-library/react";
import { Suspense, useState, type ComponentType } from "react";
import { describe, expect, it, vi } from "vitest";
import { lazyScreen } from "./lazy-screen";

function Counter() {
  const [clicks, setClicks] = useState(0);
  return <button onClick={() => setClicks((n) => n + 1)}>clicked {clicks}</button>;
}

const inSuspense = (Screen: ComponentType) => (
  <Suspense fallback={<p>waiting</p>}>
    <Screen />
  </Suspense>
);

describe("a lazily loaded screen", () => {
  it("renders at once, without a fallback, once preloaded, and fetches its code only once", async () => {
    const load = vi.fn(() => Promise.resolve(Counter));
    const Screen = lazyScreen(load);
    await Screen.preload();
    await Screen.preload();
    render(inSuspense(Screen));
    expect(screen.getByRole("button")).toHaveTextContent("clicked 0");
    expect(screen.queryByText("waiting")).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("suspends when not preloaded, and keeps its state when rendered again after its code arrived", async () => {
    const Screen = lazyScreen(() => Promise.resolve(Counter));
    const { rerender } = render(inSuspense(Screen));
    expect(screen.getByText("waiting")).toBeInTheDocument();
    const button = await screen.findByRole("button");
    act(() => button.click());
    rerender(inSuspense(Screen));
    expect(screen.getByRole("button")).toHaveTextContent("clicked 1");
  });

  it("fetches again after a failed fetch", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValueOnce(Counter);
    const Screen = lazyScreen(load);
    await expect(Screen.preload()).rejects.toThrow("offline");
    await Screen.preload();
    render(inSuspense(Screen));
    expect(screen.getByRole("button")).toBeInTheDocument();
  });
});
