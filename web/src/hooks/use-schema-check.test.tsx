/** The forms' check with the contract's schemas, which load as a chunk of their own (lib/contract-schemas.ts). */
import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { SCHEMAS_UNAVAILABLE_MESSAGE } from "./use-schema-check";

const chunk = vi.hoisted(() => ({ unavailable: false }));

vi.mock("@/lib/contract-schemas", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/contract-schemas")>();
  return {
    loadContractSchemas: () =>
      chunk.unavailable
        ? Promise.reject(new Error("Failed to fetch dynamically imported module"))
        : real.loadContractSchemas(),
  };
});

afterEach(() => {
  chunk.unavailable = false;
  vi.unstubAllGlobals();
});

function submitEmail(email: string) {
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
  fireEvent.click(screen.getByRole("button", { name: "Send Code" }));
}

describe("a form's check", () => {
  it("without its schemas (the chunk failed to load) toasts that the form could not be checked, sends nothing", async () => {
    chunk.unavailable = true;
    const fetchMock = mockFetch(() => jsonResponse({ message: "Login code sent", email: "ann@example.com" }));
    renderApp("/login");

    submitEmail("ann@example.com");

    expect(await screen.findByText(SCHEMAS_UNAVAILABLE_MESSAGE)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends once when the form is submitted twice while the first check runs", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ message: "Login code sent", email: "ann@example.com" }));
    renderApp("/login");

    submitEmail("ann@example.com");
    fireEvent.click(screen.getByRole("button", { name: "Send Code" }));

    expect(await screen.findByText("ann@example.com")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
