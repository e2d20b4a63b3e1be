import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";
import { dispatch } from "@/lib/toast";

// Radix measures some controls (checkbox, radio, switch, popover, tooltip) with ResizeObserver, which jsdom
// lacks. Defined here rather than stubbed, so a test's `vi.unstubAllGlobals()` keeps it.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Lazy screens load their chunk first; on a busy machine that can take longer than the default second.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  // The toast list and the storage outlive a rendered tree; start each test without them.
  dispatch({ type: "REMOVE_TOAST" });
  window.localStorage.clear();
});
