import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { dispatch } from "@/hooks/use-toast";

afterEach(() => {
  cleanup();
  // The toast list and the storage outlive a rendered tree; start each test without them.
  dispatch({ type: "REMOVE_TOAST" });
  window.localStorage.clear();
});
