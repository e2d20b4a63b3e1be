import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { signInAsAdmin } from "@/test/session";
import { useImpersonation } from "./use-impersonation";

function LocationProbe() {
  return <p data-testid="path">{useLocation().pathname}</p>;
}

function renderImpersonation() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(["users"], ["cached for the admin"]);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={["/admin/users"]}>
        {children}
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>
  );
  return { queryClient, ...renderHook(() => useImpersonation(), { wrapper }) };
}

describe("useImpersonation", () => {
  it("start keeps the admin's key aside, acts as the customer and opens /user-dashboard", () => {
    signInAsAdmin();
    const { result, queryClient } = renderImpersonation();
    expect(result.current.impersonatedEmail).toBeNull();

    act(() => result.current.start({ apiKey: "key-ann", email: "ann@example.com" }));

    expect(window.localStorage.getItem("apiKey")).toBe("key-ann");
    expect(window.localStorage.getItem("userRole")).toBe("user");
    expect(window.localStorage.getItem("adminApiKey")).toBe("admin-key");
    expect(window.localStorage.getItem("impersonatedUserEmail")).toBe("ann@example.com");
    expect(result.current.impersonatedEmail).toBe("ann@example.com");
    expect(queryClient.getQueryData(["users"])).toBeUndefined();
    expect(screen.getByTestId("path")).toHaveTextContent("/user-dashboard");
  });

  it("switching to another customer keeps the admin's key, and stop restores it", () => {
    signInAsAdmin();
    const { result } = renderImpersonation();

    act(() => result.current.start({ apiKey: "key-ann", email: "ann@example.com" }));
    act(() => result.current.start({ apiKey: "key-bob", email: "bob@example.com" }));
    expect(window.localStorage.getItem("adminApiKey")).toBe("admin-key");
    expect(result.current.impersonatedEmail).toBe("bob@example.com");

    act(() => result.current.stop());

    expect(window.localStorage.getItem("apiKey")).toBe("admin-key");
    expect(window.localStorage.getItem("userRole")).toBe("admin");
    expect(window.localStorage.getItem("adminApiKey")).toBeNull();
    expect(window.localStorage.getItem("impersonatedUserEmail")).toBeNull();
    expect(result.current.impersonatedEmail).toBeNull();
    expect(screen.getByTestId("path")).toHaveTextContent("/admin");
  });

  it("refuses to start without a signed-in admin's key", () => {
    const { result } = renderImpersonation();
    expect(() => result.current.start({ apiKey: "key-ann", email: "ann@example.com" })).toThrow();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
  });
});
