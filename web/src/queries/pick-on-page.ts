/** @module The frame link for "Pick on page" and the selector's check on other pages (docs/placement.md). */
import { useMutation } from "@tanstack/react-query";
import type { PickCheck, PickFrame } from "#contract/responses";
import { apiJson } from "@/lib/api";

/** Asks for a frame of the customer's page with the picker; the form shows a refusal itself. */
export function usePickFrame() {
  return useMutation({
    mutationFn: (url: string) => apiJson<PickFrame>("POST", "/api/pick-on-page", { url }),
    meta: { silent: true },
  });
}

/** Asks whether a picked selector names an element on other pages of a prefix rule; the form shows a refusal. */
export function usePickCheck() {
  return useMutation({
    mutationFn: (body: { url: string; selector: string }) =>
      apiJson<PickCheck>("POST", "/api/pick-on-page/check", body),
    meta: { silent: true },
  });
}
