/** @module The frame link for "Pick on page" (docs/placement.md). */
import { useMutation } from "@tanstack/react-query";
import type { PickFrame } from "#contract/responses";
import { apiJson } from "@/lib/api";

/** Asks for a frame of the customer's page with the picker; the form shows a refusal itself. */
export function usePickFrame() {
  return useMutation({
    mutationFn: (url: string) => apiJson<PickFrame>("POST", "/api/pick-on-page", { url }),
    meta: { silent: true },
  });
}
