import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useToast } from "@/lib/toast";
import { createQueryClient } from "@/lib/query-client";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { signInAsAdmin } from "@/test/session";
import { useSetUserLimit } from "./users";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("useSetUserLimit (SPEC.md §7: defined but unused)", () => {
  it("sends {limit} to PATCH .../limit and toasts 'Limits updated successfully'", async () => {
    signInAsAdmin();
    const calls = mockApi(({ method, url }) =>
      method === "PATCH" && url === "/api/admin/users/u-ann/limit" ? jsonResponse({ userId: "u-ann" }) : undefined,
    );
    const queryClient = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => ({ setLimit: useSetUserLimit(), toasts: useToast().toasts }), { wrapper });

    act(() => result.current.setLimit.mutate({ userId: "u-ann", limit: null }));

    await waitFor(() => expect(result.current.setLimit.isSuccess).toBe(true));
    expect(calls).toEqual([{ method: "PATCH", url: "/api/admin/users/u-ann/limit", body: { limit: null } }]);
    expect(result.current.toasts.map((t) => t.title)).toEqual(["Limits updated successfully"]);
  });
});
