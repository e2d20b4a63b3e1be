import { render, screen } from "@testing-library/react";
import { lazy } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LoadBoundary, SCREEN_FAILED_MESSAGE } from "./load-boundary";

afterEach(() => {
  vi.restoreAllMocks();
});

// A chunk the server no longer has, as after a new deployment.
const MissingChunk = lazy(() => Promise.reject(new Error("Failed to fetch dynamically imported module")));

describe("a screen that fails to load", () => {
  it("is replaced by a red note asking for a reload, and the next path renders afresh", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { rerender } = render(
      <LoadBoundary resetKey="/admin">
        <MissingChunk />
      </LoadBoundary>,
    );
    expect(await screen.findByText(SCREEN_FAILED_MESSAGE)).toHaveClass("text-destructive");

    rerender(
      <LoadBoundary resetKey="/login">
        <p>Login</p>
      </LoadBoundary>,
    );
    expect(await screen.findByText("Login")).toBeInTheDocument();
    expect(screen.queryByText(SCREEN_FAILED_MESSAGE)).not.toBeInTheDocument();
  });
});
